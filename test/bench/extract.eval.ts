// How well does the deterministic entity extractor find a contract's parties and its agreement
// date? Measured on CUAD v1 (../shared/eval/cuad): 510 real commercial contracts with the parties
// and the agreement date written down by annotators. Also: how fast it reads them.
//
// What is compared with what:
//   parties   gold = the gold `parties` entries that end with a legal form (Inc., Ltd, LLC, ...),
//             keyed with the extractor's own normaliser; predicted = the distinct organisation
//             keys found in a window of the contract. Precision = predicted keys that are gold
//             keys / predicted keys; recall = gold keys predicted / gold keys.
//   dates     gold = the agreement date (M/D/YY), scored when the day, month and year are known
//             (or only the month was blank in the contract: then YYYY-MM); found = one of the
//             dates extracted in the window has that value.
// Windows:
//   preamble  from the start of the contract to the end of its opening statement. The opening
//             statement is the first paragraph of 80 characters or more (within 30,000
//             characters) that introduces parties ("between", "among", "by and", "entered into",
//             "is made", "agree as follows"; else the first shorter one); it
//             ends where recitals or numbered sections begin (WHEREAS, RECITALS, BACKGROUND,
//             WITNESSETH, NOW THEREFORE, ARTICLE 1, Section 1, "1. X", "1.1"), at most 2,000
//             characters after the paragraph's start. Lines repeated three or more times in the
//             contract (page headers and footers) are left out. No such paragraph: the first
//             2,000 characters.
//   first2000 the first 2,000 characters.
//   whole     the whole text (recall only: every organisation in a contract is not a party).
//
// The figures are in-sample: CUAD has no development split, and the extractor's rules were
// revised after reading misses on these same contracts (see docs/EVALUATION.md).
//
//   node --import tsx test/bench/extract.eval.ts [--examples N] [--audit organisation|person|date|email]

import { cpus } from 'node:os';
import { extractClaims } from '../../server/src/extract/claims/index.ts';
import { countPhrases } from '../../server/src/extract/concepts.ts';
import { extractEntities } from '../../server/src/extract/entities/index.ts';
import { findDates } from '../../server/src/extract/entities/dates.ts';
import { findEmails } from '../../server/src/extract/entities/emails.ts';
import { findLegalForms, normaliseName } from '../../server/src/extract/entities/legalSuffixes.ts';
import { findOrganisations } from '../../server/src/extract/entities/organisations.ts';
import { findPeople } from '../../server/src/extract/entities/people.ts';
import type { Entity } from '../../server/src/extract/types.ts';
import { cuadAvailable, loadContracts, type Contract } from '../support/cuad.ts';

const args = process.argv.slice(2);
const examplesArg = args.indexOf('--examples');
const EXAMPLES = examplesArg >= 0 ? Number(args[examplesArg + 1]) : 3;
const auditArg = args.indexOf('--audit');
const AUDIT = auditArg >= 0 ? args[auditArg + 1] : undefined;

if (!cuadAvailable()) {
  console.log('CUAD is not at ../shared/eval/cuad: nothing to measure.');
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// --audit TYPE: 100 mentions of one entity type drawn with a fixed seed, each with its context,
// for judging by hand whether the extractor found a real name with the right boundaries.

if (AUDIT !== undefined) {
  const mentions: string[] = [];
  for (const c of loadContracts()) {
    for (const e of extractEntities(c.text)) {
      if (e.type !== AUDIT) continue;
      const flat = (s: string) => s.replace(/\s+/g, ' ');
      mentions.push(`${flat(c.text.slice(Math.max(0, e.start - 50), e.start))}[[${flat(e.surface)}]]${flat(c.text.slice(e.end, e.end + 25))}`);
    }
  }
  let seed = 20261101;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const picked = new Set<number>();
  while (picked.size < Math.min(100, mentions.length)) picked.add(Math.floor(random() * mentions.length));
  [...picked].sort((a, b) => a - b).forEach((i, k) => console.log(`${k + 1} ${mentions[i]}`));
  console.log(`(${picked.size} of ${mentions.length} ${AUDIT} mentions)`);
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// Windows

type Span = [number, number];

const INTRODUCES_PARTIES = /\b(?:between|among|amongst|by and|entered into|is made|agree as follows)\b/i;

function paragraphs(text: string): Span[] {
  const out: Span[] = [];
  const blank = /\n[^\S\n]*\n\s*/g;
  let start = 0;
  for (let m = blank.exec(text); m !== null; m = blank.exec(text)) {
    out.push([start, m.index]);
    start = m.index + m[0].length;
  }
  out.push([start, text.length]);
  return out;
}

/** Where recitals or numbered sections begin: the end of the opening statement. */
const FIRST_SECTION = /(?:^|\n|\s{2,}|[.;:]\s+)(?:W\s?H\s?E\s?R\s?E\s?A\s?S|RECITALS?|BACKGROUND|PREAMBLE|W\s?I\s?T\s?N\s?E\s?S\s?S\s?E\s?T\s?H|NOW,?\s+THEREFORE|ARTICLE\s+(?:1|I)\b|SECTION\s+1\b|1\.\s+[A-Z]|1\.1\s)/;

function preambleWindow(text: string): Span {
  const ps = paragraphs(text);
  const introduces = ([a, b]: Span) => a < 30_000 && INTRODUCES_PARTIES.test(text.slice(a, b));
  // A sentence, not a title page's lone "between" (then the preamble comes after the contents).
  let k = ps.findIndex((p) => p[1] - p[0] >= 80 && introduces(p));
  if (k < 0) k = ps.findIndex(introduces);
  if (k < 0) return [0, Math.min(text.length, 2000)];
  const start = ps[k]![0];
  const intro = INTRODUCES_PARTIES.exec(text.slice(start))!;
  const from = start + intro.index + intro[0].length;
  const limit = Math.min(text.length, start + 2000);
  const section = FIRST_SECTION.exec(text.slice(from, limit));
  return [0, section === null ? limit : from + section.index];
}

/** Lines (digits ignored) that recur three or more times: page headers and footers. */
function pageFurniture(text: string): Span[] {
  const lines: { norm: string; span: Span }[] = [];
  const counts = new Map<string, number>();
  const re = /[^\n]+/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const norm = m[0].trim().replace(/\d+/g, '#');
    if (norm.length < 6) continue;
    lines.push({ norm, span: [m.index, m.index + m[0].length] });
    counts.set(norm, (counts.get(norm) ?? 0) + 1);
  }
  return lines.filter((l) => counts.get(l.norm)! >= 3).map((l) => l.span);
}

interface Windowed {
  name: string;
  select(contract: Contract, entities: Entity[]): Entity[];
}

const WINDOWS: Windowed[] = [
  {
    name: 'preamble',
    select: (c, entities) => {
      const [a, b] = preambleWindow(c.text);
      const furniture = pageFurniture(c.text.slice(0, b));
      return entities.filter((e) => e.start >= a && e.start < b && !furniture.some(([x, y]) => e.start >= x && e.start < y));
    },
  },
  { name: 'first2000', select: (_c, entities) => entities.filter((e) => e.start < 2000) },
  { name: 'whole', select: (_c, entities) => entities },
];

// ---------------------------------------------------------------------------------------------
// Helpers

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** A spelling slip between gold and text ("Kowledge" / "Knowledge"): a few edits apart. */
function nearlySame(a: string, b: string): boolean {
  return Math.abs(a.length - b.length) <= 3 && levenshtein(a, b) <= Math.max(2, Math.floor(Math.min(a.length, b.length) / 15));
}

const nameOf = (key: string) => key.replace(/^organisation:/, '');
const pct = (n: number, d: number) => (d === 0 ? '  n/a' : (n / d).toFixed(3));
const short = (s: string, n = 90) => JSON.stringify(s.length > n ? `${s.slice(0, n)}…` : s);

class Tally {
  readonly counts = new Map<string, number>();
  readonly examples = new Map<string, string[]>();
  add(kind: string, example: string): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    const list = this.examples.get(kind) ?? [];
    if (list.length < EXAMPLES) list.push(example);
    this.examples.set(kind, list);
  }
  print(title: string): void {
    const total = [...this.counts.values()].reduce((a, b) => a + b, 0);
    console.log(`\n${title} (${total})`);
    for (const [kind, n] of [...this.counts].sort((a, b) => b[1] - a[1])) {
      console.log(`  ${String(n).padStart(4)}  ${kind}`);
      for (const example of this.examples.get(kind) ?? []) console.log(`          ${example}`);
    }
  }
}

/** The gold name's words as a pattern over raw text (any punctuation or spacing between them). */
function rawPattern(goldName: string): RegExp | null {
  const words = goldName.match(/[\p{L}\p{N}]+/gu);
  if (words === null) return null;
  return new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join(String.raw`[^\p{L}\p{N}]{1,6}`), 'iu');
}

/** The legal-form families right after `at` ("Acme, Inc." → "inc"), or null when none follows. */
function legalFormAfter(text: string, at: number): string | null {
  const after = text.slice(at, at + 40);
  const form = findLegalForms(after, true)[0];
  return form === undefined || !/^\s*,?\s*$/.test(after.slice(0, form.start)) ? null : form.families.join(' ');
}

/** The families a gold key ends with, as organisationKey wrote them. */
function goldForm(key: string): string {
  return nameOf(key).split(' ').slice(-1)[0]!;
}

/** Where the signature block starts (as far as one pattern can tell). */
const SIGNATURES = /IN WITNESS WHEREOF|Signature Page|By:\s*\/s\//i;

// ---------------------------------------------------------------------------------------------
// Load and extract (timed)

const contracts = loadContracts();
const totalChars = contracts.reduce((n, c) => n + c.text.length, 0);
const totalBytes = contracts.reduce((n, c) => n + Buffer.byteLength(c.text), 0);

function timeIt<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const out = fn();
  return [out, (performance.now() - t0) / 1000];
}

const [, coldSeconds] = timeIt(() => contracts.map((c) => extractEntities(c.text)));
const [extracted, warmSeconds] = timeIt(() => contracts.map((c) => extractEntities(c.text)));
const finderSeconds = Object.fromEntries(
  (
    [
      ['organisations', findOrganisations],
      ['people', findPeople],
      ['emails', findEmails],
      ['dates', findDates],
    ] as const
  ).map(([name, fn]) => [name, timeIt(() => contracts.forEach((c) => fn(c.text)))[1]]),
);

console.log(`CUAD v1: ${contracts.length} contracts, ${(totalBytes / 1e6).toFixed(1)} MB (${(totalChars / 1e6).toFixed(1)}M characters)`);
console.log(`Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, one thread`);
console.log('\nSpeed, extractEntities on whole texts');
for (const [label, seconds] of [['first pass (cold)', coldSeconds], ['second pass', warmSeconds]] as const) {
  console.log(
    `  ${label.padEnd(18)} ${seconds.toFixed(2)} s  ${(contracts.length / seconds).toFixed(0)} contracts/s  ${(totalBytes / 1e6 / seconds).toFixed(1)} MB/s`,
  );
}
console.log(`  by finder (s): ${Object.entries(finderSeconds).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);

// What the extract stage does per item: entities, then claims (given those entities), then phrases.
const [claimCount, stageSeconds] = timeIt(() =>
  contracts.reduce((n, c) => {
    const entities = extractEntities(c.text);
    countPhrases(c.text);
    return n + extractClaims(c.text, { entities }).length;
  }, 0),
);
console.log(
  `Speed, the whole extract stage (entities + claims + key phrases) on whole texts\n` +
    `  ${stageSeconds.toFixed(2)} s  ${(contracts.length / stageSeconds).toFixed(0)} contracts/s  ${(totalBytes / 1e6 / stageSeconds).toFixed(1)} MB/s  (${claimCount} claims)`,
);
const byType = new Map<string, number>();
for (const list of extracted) for (const e of list) byType.set(e.type, (byType.get(e.type) ?? 0) + 1);
console.log(`  entities found: ${[...byType].map(([t, n]) => `${t} ${n}`).join(', ')}`);

// ---------------------------------------------------------------------------------------------
// Parties

const goldEntries = contracts.flatMap((c) => c.parties);
const goldWithForm = goldEntries.filter((p) => p.key !== null);
console.log(
  `\nGold parties: ${goldEntries.length} entries after splitting on ";" and removing roles; ` +
    `${goldWithForm.length} end with a legal form (scored), ${goldEntries.length - goldWithForm.length} do not (people, collective labels, names without a form)`,
);

console.log('\nOrganisation parties with a legal form');
console.log('  window      predicted  correct  precision  tolerant-P  recall');
for (const window of WINDOWS) {
  let predicted = 0;
  let correct = 0;
  let tolerant = 0;
  let found = 0;
  let gold = 0;
  contracts.forEach((c, i) => {
    const goldKeys = [...new Set(c.parties.flatMap((p) => (p.key === null ? [] : [p.key])))];
    const goldNames = c.parties.map((p) => normaliseName(p.name));
    const keys = new Set(window.select(c, extracted[i]!).filter((e) => e.type === 'organisation').map((e) => e.key));
    gold += goldKeys.length;
    for (const k of goldKeys) if (keys.has(k)) found++;
    for (const k of keys) {
      predicted++;
      if (goldKeys.includes(k)) correct++;
      // Tolerant: the gold entry misspells the name, or writes it without (or with another) legal form.
      if (goldKeys.includes(k) || goldKeys.some((g) => nearlySame(nameOf(g), nameOf(k))) || goldNames.some((g) => nameOf(k).startsWith(`${g} `))) tolerant++;
    }
    (window as Windowed & { gold?: number }).gold = gold;
  });
  const precision = window.name === 'whole' ? '      -' : pct(correct, predicted).padStart(7);
  const tolerantP = window.name === 'whole' ? '      -' : pct(tolerant, predicted).padStart(7);
  console.log(
    `  ${window.name.padEnd(10)} ${String(predicted).padStart(9)} ${String(correct).padStart(8)}    ${precision}     ${tolerantP}   ${pct(found, gold)}  (${found}/${gold})`,
  );
}

// Why gold parties are missed from the preamble, and what else the preamble yields.
const missKinds = new Tally();
const extraKinds = new Tally();
const preamble = WINDOWS[0]!;
contracts.forEach((c, i) => {
  const all = extracted[i]!.filter((e) => e.type === 'organisation');
  const inPreamble = preamble.select(c, all);
  const preambleKeys = new Set(inPreamble.map((e) => e.key));
  const wholeKeys = new Set(all.map((e) => e.key));
  const normalisedText = normaliseName(c.text);
  const goldKeys = c.parties.flatMap((p) => (p.key === null ? [] : [{ key: p.key, name: p.name }]));
  const tag = c.file.slice(0, 40);

  for (const { key, name } of goldKeys) {
    if (preambleKeys.has(key)) continue;
    const goldName = nameOf(key).split(' ').slice(0, -1).join(' ');
    const bareName = normaliseName(name.replace(/[\s,]*[^\s,]+\.?$/u, ''));
    const pattern = rawPattern(name.replace(/[\s,]*[^\s,]+\.?$/u, ''));
    const raw = pattern?.exec(c.text) ?? null;
    const example = `${short(name, 60)} [${tag}]`;
    if (!normalisedText.includes(bareName)) {
      const near = [...wholeKeys].find((k) => nearlySame(nameOf(k), nameOf(key)));
      missKinds.add('gold name not in the text as written (misspelt or paraphrased by the annotator)', near ? `${example} text: ${short(nameOf(near), 50)}` : example);
    } else if (wholeKeys.has(key)) {
      const first = all.find((e) => e.key === key)!;
      const witness = c.text.search(SIGNATURES);
      const where = witness >= 0 && first.start > witness ? 'only in the signature block' : 'only later in the text';
      missKinds.add(`found, but ${where}`, `${example} at ${first.start}`);
    } else if (raw !== null && /\n/.test(raw[0])) {
      missKinds.add('name split across lines', `${example} text: ${short(raw[0], 60)}`);
    } else if ([...wholeKeys].some((k) => nameOf(k).includes(goldName) || (goldName.includes(nameOf(k).split(' ').slice(0, -1).join(' ')) && nameOf(k).split(' ').length > 1))) {
      const near = [...wholeKeys].filter((k) => nameOf(k).includes(goldName) || goldName.includes(nameOf(k).split(' ').slice(0, -1).join(' ')));
      missKinds.add('name boundary differs (too many or too few words taken)', `${example} extracted: ${near.slice(0, 2).map((k) => short(nameOf(k), 50)).join(', ')}`);
    } else if (raw !== null && !/\p{Lu}/u.test(raw[0].slice(0, 1))) {
      missKinds.add('lower-case name in the text', `${example} text: ${short(raw[0], 60)}`);
    } else if (raw !== null && legalFormAfter(c.text, raw.index + raw[0].length) !== goldForm(key)) {
      const form = legalFormAfter(c.text, raw.index + raw[0].length);
      const text = short(c.text.slice(raw.index, raw.index + raw[0].length + 20), 70);
      missKinds.add(form === null ? 'no legal form after the name in the text' : 'legal form written differently in the text', `${example} text: ${text}`);
    } else {
      const after = raw === null ? '' : c.text.slice(raw.index + raw[0].length, raw.index + raw[0].length + 25);
      const kind = raw !== null && raw[0] === raw[0].toUpperCase() ? 'other (ALL-CAPS in the text)' : 'other';
      missKinds.add(kind, `${example} text: ${short(raw === null ? '?' : raw[0] + after, 80)}`);
    }
  }

  const goldNames = c.parties.map((p) => normaliseName(p.name));
  for (const key of preambleKeys) {
    if (goldKeys.some((g) => g.key === key)) continue;
    const surface = inPreamble.find((e) => e.key === key)!.surface;
    const example = `${short(surface, 60)} [${tag}]`;
    if (goldKeys.some((g) => nearlySame(nameOf(g.key), nameOf(key)))) extraKinds.add('a gold party, misspelt in the gold data', example);
    else if (goldNames.some((g) => nameOf(key).startsWith(`${g} `))) extraKinds.add('a gold party written without (or with another) legal form in the gold data', example);
    else if (goldKeys.some((g) => nameOf(g.key).includes(nameOf(key).split(' ').slice(0, -1).join(' ')) || nameOf(key).includes(nameOf(g.key).split(' ').slice(0, -1).join(' '))))
      extraKinds.add('name boundary differs from a gold party', example);
    else extraKinds.add('another organisation (affiliate, parent, third party) or not an organisation', example);
  }
});
missKinds.print('Gold organisation parties not found in the preamble, by kind');
extraKinds.print('Preamble organisations that are not gold parties, by kind');

// ---------------------------------------------------------------------------------------------
// Agreement dates

const byPrecision = new Map<string, number>();
for (const c of contracts) byPrecision.set(c.agreementDate.precision, (byPrecision.get(c.agreementDate.precision) ?? 0) + 1);
const scored = contracts.filter((c) => c.agreementDate.precision === 'full' || c.agreementDate.precision === 'month');
console.log(
  `\nAgreement dates: ${byPrecision.get('full') ?? 0} with day, month and year; ${byPrecision.get('month') ?? 0} with the day left blank ` +
    `(scored as YYYY-MM); ${byPrecision.get('year') ?? 0} with only a year and ${byPrecision.get('none') ?? 0} empty or unreadable (not scored)`,
);
console.log('  window      found / scored   recall');
const dateMisses = new Tally();
for (const window of WINDOWS) {
  let found = 0;
  contracts.forEach((c, i) => {
    if (!scored.includes(c)) return;
    const values = new Set(window.select(c, extracted[i]!).filter((e) => e.type === 'date').map((e) => e.value));
    const hit = c.agreementDate.values.some((v) => values.has(v));
    if (hit) found++;
    if (hit || window.name !== 'preamble') return;
    const tag = c.file.slice(0, 40);
    const all = extracted[i]!.filter((e) => e.type === 'date' && c.agreementDate.values.includes(e.value!));
    const example = `${c.agreementDate.raw} ${short(c.agreementDateContext.join(' | '), 50)} [${tag}]`;
    if (all.length > 0) {
      const first = all[0]!;
      const witness = c.text.search(SIGNATURES);
      const inSignatures = witness >= 0 && first.start > witness;
      dateMisses.add(inSignatures ? 'only in the signature block' : 'only later in the text', `${example} at ${first.start}: ${short(first.surface, 40)}`);
    } else if (c.agreementDateContext.length === 0) {
      dateMisses.add('not written as a date in the text (no gold context)', example);
    } else if (c.agreementDateContext.some((ctx) => c.text.includes(ctx))) {
      dateMisses.add('written in a form not parsed', example);
    } else {
      dateMisses.add('gold context not found in the text', example);
    }
  });
  console.log(`  ${window.name.padEnd(10)} ${String(found).padStart(5)} / ${String(scored.length).padEnd(6)}   ${pct(found, scored.length)}`);
}
dateMisses.print('Agreement dates not found in the preamble, by kind');
