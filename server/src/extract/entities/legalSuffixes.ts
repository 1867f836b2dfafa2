// The legal forms that mark a run of words as an organisation's registered name ("Acme Ltd",
// "Siemens AG"), and the family each spelling belongs to, so that "Ltd", "Ltd." and "LIMITED"
// give one key. Kept apart from the name finder because the gold-data normaliser of the
// evaluation and the extractor must agree on exactly this table.

export interface LegalForm {
  /** Regular-expression source for one spelling, matched case-insensitively unless `exact`. */
  pattern: string;
  /** Canonical family written into keys, e.g. "ltd" for Ltd / Ltd. / Limited. */
  family: string;
  /** Short forms that are also everyday abbreviations (AG, SE, NV...): only the listed case counts. */
  exact?: boolean;
  /** Lower-case spelling is normal for this form ("Barclays plc"); others must start upper-case. */
  lowercaseOk?: boolean;
  /** Two or three capitals that also abbreviate places: not when a postcode follows ("Adelaide SA 5000"). */
  shortForm?: boolean;
  /** Also a state or province code: no comma before it either ("Calgary, AB", "Las Vegas, NV"). */
  stateCode?: boolean;
  /** A common noun as well as a legal form ("the Operating Company"): see organisations.ts. */
  commonNoun?: boolean;
}

const FORMS: LegalForm[] = [
  // Multi-word forms first: at one position the longest spelling wins.
  { pattern: String.raw`Limited\s+Liability\s+Company`, family: 'llc' },
  { pattern: String.raw`Limited\s+Liability\s+Partnership`, family: 'llp' },
  { pattern: String.raw`Limited\s+Partnership`, family: 'lp' },
  { pattern: String.raw`Public\s+Limited\s+Company`, family: 'plc' },
  { pattern: String.raw`Pty\.?\s+Ltd\.?|Pty\.?\s+Limited|Proprietary\s+Limited`, family: 'pty ltd' },
  { pattern: String.raw`Pte\.?\s+Ltd\.?|Pte\.?\s+Limited`, family: 'pte ltd' },
  { pattern: String.raw`Pvt\.?\s+Ltd\.?|Private\s+Limited`, family: 'pvt ltd' },
  { pattern: String.raw`Sdn\.?\s+Bhd\.?`, family: 'sdn bhd' },
  { pattern: String.raw`GmbH\s*&\s*Co\.?\s*KG(?:aA)?`, family: 'gmbh co kg' },
  { pattern: String.raw`S\.\s?A\.(?:\s?B\.)?\s+de\s+C\.\s?V\.`, family: 'sa de cv' },
  { pattern: String.raw`S\.\s?de\s+R\.\s?L\.(?:\s+de\s+C\.\s?V\.)?`, family: 's de rl' },
  { pattern: String.raw`S\.\s?[àa]\.?\s?r\.\s?l\.?|SARL`, family: 'sarl' },
  { pattern: String.raw`Sp\.\s?z\s?o\.\s?o\.`, family: 'sp zoo' },
  { pattern: String.raw`Kabushiki\s+Kaisha`, family: 'kk' },
  { pattern: String.raw`Aktiengesellschaft`, family: 'ag' },

  { pattern: String.raw`Ltd\.?|Limited`, family: 'ltd' },
  { pattern: String.raw`Inc\.?|Incorporated`, family: 'inc' },
  { pattern: String.raw`Corp\.?|Corporation`, family: 'corp', commonNoun: true },
  { pattern: String.raw`Company`, family: 'co', commonNoun: true },
  // "Co" without a full stop is a US state code often enough ("Denver, CO") to leave out.
  { pattern: String.raw`Co\.`, family: 'co' },
  { pattern: String.raw`L\.\s?L\.\s?C\.?|LLC\.?`, family: 'llc' },
  { pattern: String.raw`L\.\s?L\.\s?P\.?|LLP`, family: 'llp' },
  { pattern: String.raw`L\.\s?P\.?|LP`, family: 'lp' },
  { pattern: String.raw`P\.\s?L\.\s?C\.?|PLC`, family: 'plc', lowercaseOk: true },
  { pattern: String.raw`ULC`, family: 'ulc' },
  { pattern: String.raw`P\.C\.`, family: 'pc' },
  { pattern: String.raw`N\.\s?A\.?`, family: 'na' },
  { pattern: String.raw`FSB`, family: 'fsb', exact: true },
  { pattern: String.raw`G\.I\.E\.`, family: 'gie' },
  { pattern: String.raw`GmbH|GMBH`, family: 'gmbh', exact: true },
  { pattern: String.raw`KGaA`, family: 'kgaa', exact: true },
  { pattern: String.raw`AG`, family: 'ag', exact: true, shortForm: true },
  { pattern: String.raw`S\.\s?A\.\s?S\.?`, family: 'sas' },
  { pattern: String.raw`SAS`, family: 'sas', exact: true, shortForm: true },
  { pattern: String.raw`S\.\s?A\.U\.`, family: 'sau' },
  { pattern: String.raw`S\.\s?A\.?|S/A`, family: 'sa' },
  { pattern: String.raw`SA`, family: 'sa', exact: true, shortForm: true },
  { pattern: String.raw`S\.\s?L\.U?\.`, family: 'sl' },
  { pattern: String.raw`B\.\s?V\.?`, family: 'bv' },
  { pattern: String.raw`BV`, family: 'bv', exact: true, shortForm: true },
  { pattern: String.raw`N\.\s?V\.?`, family: 'nv' },
  { pattern: String.raw`NV`, family: 'nv', exact: true, shortForm: true, stateCode: true },
  { pattern: String.raw`S\.\s?p\.\s?A\.|SpA|S\.P\.A\.`, family: 'spa' },
  { pattern: String.raw`S\.\s?r\.\s?l\.|Srl|SRL`, family: 'srl' },
  { pattern: String.raw`Ltda\.?`, family: 'ltda' },
  { pattern: String.raw`Oyj|Oy`, family: 'oy', exact: true, shortForm: true },
  { pattern: String.raw`AB`, family: 'ab', exact: true, shortForm: true, stateCode: true },
  { pattern: String.raw`A/S|A\.\s?S\.`, family: 'as', exact: true },
  { pattern: String.raw`ApS`, family: 'aps', exact: true },
  { pattern: String.raw`ASA`, family: 'asa', exact: true, shortForm: true },
  { pattern: String.raw`K\.\s?K\.|KK`, family: 'kk', exact: true, shortForm: true },
  { pattern: String.raw`SE`, family: 'se', exact: true, shortForm: true },
  { pattern: String.raw`Bhd\.?|BHD|Berhad`, family: 'bhd' },
  { pattern: String.raw`Tbk\.?`, family: 'tbk' },
];

// A form is a whole word: not glued to letters or digits, nor part of "Co-Branding", "e-Inc",
// an email address or a path.
const GLUED_BEFORE = /[\p{L}\p{N}\-@./&'’]/u;
const AFTER = String.raw`(?![\p{L}\p{N}\-@&'’])`;

interface CompiledForm {
  form: LegalForm;
  /** Sticky: tried at a position the combined scan found. */
  at: RegExp;
  lenientAt: RegExp;
}

const COMPILED: CompiledForm[] = FORMS.map((form) => ({
  form,
  at: new RegExp(`(?:${form.pattern})${AFTER}`, form.exact ? 'uy' : 'iuy'),
  lenientAt: new RegExp(`(?:${form.pattern})${AFTER}`, 'iuy'),
}));

/** Forms by the lower-cased first letter they can start with. */
const BY_INITIAL = new Map<string, CompiledForm[]>();
for (const compiled of COMPILED) {
  const initial = compiled.form.pattern[0]!.toLowerCase();
  BY_INITIAL.set(initial, [...(BY_INITIAL.get(initial) ?? []), compiled]);
}

// One plain scan for any form in any case finds the candidate positions; each is then checked
// against the forms that begin with its letter. Fifty separate scans of a long text, or one
// scan with Unicode look-arounds, are several times slower.
const ANY_FORM = new RegExp(String.raw`\b(?:${FORMS.map((f) => f.pattern).join('|')})`, 'gi');

export interface SuffixMatch {
  start: number;
  end: number;
  /** Families of a chain such as "Co., Ltd.", in order. */
  families: string[];
  /** The forms matched, in order (the chain's flags are those of its last form). */
  forms: LegalForm[];
}

/** Running text must spell a legal form as written in the table (Title or UPPER case). */
function caseFits(form: LegalForm, written: string): boolean {
  if (form.exact || form.lowercaseOk) return true;
  const first = written.match(/\p{L}/u)?.[0] ?? '';
  return first !== first.toLowerCase();
}

/**
 * Every legal form in `text`, with runs like "Co., Ltd." or "Pty. Ltd" joined into one chain.
 * `lenient` accepts any letter case (for normalising a name already known to be one).
 */
export function findLegalForms(text: string, lenient = false): SuffixMatch[] {
  const found: { start: number; end: number; form: LegalForm }[] = [];
  ANY_FORM.lastIndex = 0;
  for (let m = ANY_FORM.exec(text); m !== null; m = ANY_FORM.exec(text)) {
    if (m.index > 0 && GLUED_BEFORE.test(text[m.index - 1]!)) continue;
    let best: { end: number; form: LegalForm } | null = null;
    for (const compiled of BY_INITIAL.get(m[0][0]!.toLowerCase()) ?? []) {
      const regex = lenient ? compiled.lenientAt : compiled.at;
      regex.lastIndex = m.index;
      const hit = regex.exec(text);
      if (hit === null || (!lenient && !caseFits(compiled.form, hit[0]))) continue;
      if (best === null || m.index + hit[0].length > best.end) best = { end: m.index + hit[0].length, form: compiled.form };
    }
    if (best !== null) found.push({ start: m.index, end: best.end, form: best.form });
    ANY_FORM.lastIndex = best !== null ? best.end : m.index + 1;
  }
  // At one position keep the longest spelling; drop forms inside a longer one.
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: typeof found = [];
  for (const f of found) {
    const last = kept[kept.length - 1];
    if (last !== undefined && f.start < last.end) continue;
    kept.push(f);
  }
  const chains: SuffixMatch[] = [];
  for (const f of kept) {
    const last = chains[chains.length - 1];
    if (last !== undefined && /^\s?,?\s?$/.test(text.slice(last.end, f.start))) {
      last.end = f.end;
      last.families.push(f.form.family);
      last.forms.push(f.form);
    } else {
      chains.push({ start: f.start, end: f.end, families: [f.form.family], forms: [f.form] });
    }
  }
  return chains;
}

/** Lower case, no accents, "&" as "and", no punctuation, no leading "the". */
export function normaliseName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’.]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/^the /, '');
}

/** Every family a key can end with, as keys write them ("ltd", "pty ltd", "gmbh co kg"). */
const FAMILIES = new Set(FORMS.map((form) => form.family));
/** The most words one family has ("sa de cv"). */
const LONGEST_FAMILY = Math.max(...[...FAMILIES].map((family) => family.split(' ').length));

/**
 * Whether the end of an organisation's key, after its name, is only legal forms: "ltd", or a chain
 * such as "ltd co" ("Ltd. Co."). "holdings ltd" is not: "Example Holdings Ltd" is another name than "Example Ltd".
 */
export function isLegalFormChain(keyTail: string): boolean {
  const words = keyTail.split(' ');
  // Whether words[from..] splits into families, trying each length of family at `from`.
  const splits = (from: number): boolean =>
    from === words.length ||
    Array.from({ length: Math.min(LONGEST_FAMILY, words.length - from) }, (_, n) => n + 1).some(
      (length) => FAMILIES.has(words.slice(from, from + length).join(' ')) && splits(from + length),
    );
  return keyTail !== '' && splits(0);
}

/** The key shared by every spelling of one registered name: "organisation:example ltd". */
export function organisationKey(name: string, families: string[]): string {
  return `organisation:${normaliseName(name)} ${families.join(' ')}`;
}

/**
 * The key of a name already known to be an organisation (e.g. a contract's party as a person
 * typed it), or null when it does not end with a legal form. Any letter case is accepted.
 */
export function normaliseOrganisation(fullName: string): string | null {
  const trimmed = fullName.replace(/[\s,;:]+$/u, '');
  // "Mutual Insurance Corporation of America": the place is part of the name (as organisations.ts reads it).
  const ofPlace = /^(.*\S)\s+of\s+(\p{Lu}[\p{L}.]*(?:\s+\p{Lu}[\p{L}.]*){0,2})$/u.exec(trimmed);
  if (ofPlace !== null) {
    const inner = normaliseOrganisation(ofPlace[1]!);
    const form = findLegalForms(ofPlace[1]!, true).pop();
    if (inner !== null && form?.forms[form.forms.length - 1]!.commonNoun) return `${inner} of ${normaliseName(ofPlace[2]!)}`;
  }
  const chains = findLegalForms(trimmed, true);
  const last = chains[chains.length - 1];
  if (last === undefined || trimmed.slice(last.end).trim() !== '') return null;
  const name = trimmed.slice(0, last.start).replace(/[\s,]+$/u, '');
  // "the Company", "each Company": a reference to a party, not a name.
  if (normaliseName(name) === '' || /(?:^|\s)(?:the|a|an|each|such|any)$/u.test(name)) return null;
  return organisationKey(name, last.families);
}
