// Japanese companies named with their legal form: "株式会社ソニー", "トヨタ自動車株式会社",
// "(株)日立製作所". Japanese is written without spaces, so the Latin-script rule (organisations.ts:
// the capitalised words before "KK") cannot find the name; here the legal form is the evidence, as
// there, and the name is the run of katakana, kanji and Latin letters on the form's other side. A
// particle or ending in hiragana ("ソニーと", "は"), punctuation or a space ends the run: Japanese
// writes its grammar in hiragana and its names in the other scripts.
//
// Limits, stated honestly: kanji words next to the name have nothing to part them from it
// ("昨日トヨタ自動車株式会社" reads "昨日トヨタ自動車"), so a run longer than MAX_NAME_CHARS is not read
// at all. Chinese (有限公司) is not read: it has no hiragana to end a name.

import type { Found } from './found.ts';

/** The forms, with the family written into keys (legalSuffixes.ts names "KK" and "Kabushiki Kaisha" kk too). */
const FORMS: readonly { written: string; family: string }[] = [
  { written: '株式会社', family: 'kk' },
  { written: '(株)', family: 'kk' },
  { written: '（株）', family: 'kk' },
  { written: '㈱', family: 'kk' },
  { written: '有限会社', family: 'yk' },
  { written: '(有)', family: 'yk' },
  { written: '（有）', family: 'yk' },
  { written: '合同会社', family: 'gk' },
];

const FORM_SOURCE = FORMS.map((form) => form.written.replace(/[()]/g, '\\$&')).join('|');
const FORM = new RegExp(FORM_SOURCE, 'gu');
const HAS_FORM = new RegExp(FORM_SOURCE, 'u');
const FAMILY = new Map(FORMS.map((form) => [form.written, form.family]));

/** What a Japanese name is written in: katakana (with its long-vowel mark and middle dot), kanji, Latin letters and digits, full width or not, "&". */
const NAME_CHAR = /[\p{Script=Katakana}\p{Script=Han}ー・ｰ･A-Za-z0-9Ａ-Ｚａ-ｚ０-９&＆]/u;
/** Longer runs are more likely a name with the words around it than a name. */
const MAX_NAME_CHARS = 24;

/** The name's run from `at` forwards (step 1) or backwards from before `at` (step -1): [start, end). */
function nameRun(text: string, at: number, step: 1 | -1): [number, number] | null {
  let start = at;
  let end = at;
  // Scanned no further than a name can be long: a crafted run of a million kanji, or of legal forms
  // back to back, costs each form a few dozen characters, not the run.
  if (step === 1) {
    while (end < text.length && end - at <= MAX_NAME_CHARS && NAME_CHAR.test(text[end]!)) end++;
  } else {
    while (start > 0 && at - start <= MAX_NAME_CHARS && NAME_CHAR.test(text[start - 1]!)) start--;
  }
  // A middle dot or a long-vowel mark does not begin or end a name.
  while (start < end && /[・･ー]/u.test(text[start]!)) start++;
  while (end > start && /[・･]/u.test(text[end - 1]!)) end--;
  if (end === start || end - start > MAX_NAME_CHARS || !/[\p{Script=Katakana}\p{Script=Han}\p{L}]/u.test(text.slice(start, end))) return null;
  // Another legal form inside the run is another company's ("株式会社A株式会社B" is two).
  if (HAS_FORM.test(text.slice(start, end))) return null;
  return [start, end];
}

/** The key: the name as Unicode folds its widths (half-width katakana, full-width Latin), lower case, without middle dots. */
function nameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/[・\s]/gu, '');
}

export function findJapaneseOrganisations(text: string): Found[] {
  const found: Found[] = [];
  let readTo = 0;
  for (const m of text.matchAll(FORM)) {
    const formStart = m.index;
    const formEnd = formStart + m[0].length;
    if (formStart < readTo) continue;
    const family = FAMILY.get(m[0])!;
    // The form is written before the name ("株式会社ソニー") or after it ("トヨタ自動車株式会社"): the
    // side with a name run right against the form is the name; before it wins, as the commoner order.
    const before = nameRun(text, formStart, -1);
    const after = before === null ? nameRun(text, formEnd, 1) : null;
    const run = before ?? after;
    if (run === null) continue;
    const [start, end] = before !== null ? [run[0], formEnd] : [formStart, run[1]];
    found.push({
      type: 'organisation',
      surface: text.slice(start, end),
      key: `organisation:${nameKey(text.slice(run[0], run[1]))} ${family}`,
      start,
      end,
    });
    readTo = end;
  }
  return found;
}
