// CUAD v1 (../shared/eval/cuad) for evaluations: the 510 contract texts and the gold parties and
// agreement dates, parsed into forms the extractor's output can be compared with. Callers check
// `cuadAvailable()` first and skip with a reason when the shared data is absent.

import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { normaliseOrganisation } from '../../server/src/extract/entities/index.ts';
import { findLegalForms } from '../../server/src/extract/entities/legalSuffixes.ts';
import { EVAL_ROOT } from './tempFolder.ts';

export const CUAD_DIR = path.join(EVAL_ROOT, 'cuad');

export interface GoldParty {
  /** The party as the annotator wrote it, role and trade name removed. */
  name: string;
  /** Key under the extractor's own normaliser, or null when the name carries no legal form. */
  key: string | null;
}

/**
 * The gold agreement date. `full`: day, month and year known (value YYYY-MM-DD); `month`: the
 * day was left blank in the contract (YYYY-MM); `year`: only the year (YYYY); `none`: empty or
 * unreadable (e.g. "[]/[]/[]").
 */
export interface GoldDate {
  precision: 'full' | 'month' | 'year' | 'none';
  /** One or more accepted values (a few contracts list two). */
  values: string[];
  raw: string;
}

export interface Contract {
  file: string;
  text: string;
  parties: GoldParty[];
  partiesRaw: string;
  agreementDate: GoldDate;
  /** The passages the annotator read the agreement date from, e.g. "8th day of May 2014". */
  agreementDateContext: string[];
}

export function cuadAvailable(): boolean {
  return existsSync(path.join(CUAD_DIR, 'gold_metadata.jsonl'));
}

/** Drops the annotator's role labels ("(\"Licensee\")") and descriptions ("(formerly known as X)"). */
function stripAnnotations(name: string): string {
  let out = name;
  for (let previous = ''; previous !== out; ) {
    previous = out;
    out = out.replace(/\(([^()]*)\)/g, (group, inner: string) =>
      /["'“”‘’]/.test(inner) || /^\s*\p{Ll}/u.test(inner) || inner.trim() === '' ? ' ' : group,
    );
  }
  return out
    .replace(/\s+(?:d\/b\/a|dba|doing business as|f\/k\/a|a\/k\/a|f\/s\/o|formerly known as)\b.*$/i, '')
    .replace(/,?\s+(?:on behalf of|and (?:all of )?its|including its|together with its|or its|solely for|a (?:wholly[- ]owned )?subsidiary of)\b.*$/i, '')
    .replace(/["“”]+/g, ' ')
    .replace(/[™®]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,;.]+|[\s,;]+$/g, '')
    .trim();
}

/**
 * Some entries list several companies in one piece ("WYZZ, Inc. and WYZZ Licensee, Inc.",
 * "A LLC , B Ltda. , C Corporation"): split after each legal form followed by a separator.
 */
function splitListedParties(piece: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const form of findLegalForms(piece, true)) {
    const rest = piece.slice(form.end);
    const separator = rest.match(/^\s*[.,]?\s*(?:and\s+|&\s+|together with\s+|or\s+)?(?=\S)/i);
    if (separator === null || separator[0].trim() === '' || form.end <= from) continue;
    parts.push(piece.slice(from, form.end));
    from = form.end + separator[0].length;
  }
  parts.push(piece.slice(from));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/**
 * The gold `parties` field: parties separated by ";", each followed by its defined role in
 * parentheses. Entries without a legal form (people, collective labels such as "Lender,
 * Endorser and Fitness") get key null and are not counted as organisation parties.
 */
export function parseParties(field: string): GoldParty[] {
  const parties: GoldParty[] = [];
  const seen = new Set<string>();
  for (const piece of field.split(';').flatMap((p) => splitListedParties(stripAnnotations(p)))) {
    let name = piece;
    if (name === '') continue;
    // A role written after the name without parentheses: "Excite, Inc. Excite".
    const last = findLegalForms(name, true).pop();
    if (normaliseOrganisation(name) === null && last !== undefined && /^\s*\S+(?:\s+\S+)?\s*$/.test(name.slice(last.end))) {
      name = name.slice(0, last.end);
    }
    const key = normaliseOrganisation(name);
    if (key !== null && seen.has(key)) continue;
    if (key !== null) seen.add(key);
    parties.push({ name, key });
  }
  return parties;
}

/** "5/8/14" (M/D/YY), "12/[]/2019" (day blank), "[]/[]/2019" (year only), as in CUAD's answers. */
export function parseGoldDate(field: string): GoldDate {
  const values: string[] = [];
  let precision: GoldDate['precision'] = 'none';
  const rank = { none: 0, year: 1, month: 2, full: 3 } as const;
  for (const part of field.split(';')) {
    const m = part.trim().match(/^(\d{1,2}|\[\])\/(\d{1,2}|\[\])\/(\d{2}|\d{4})$/);
    if (m === null) continue;
    const [, month, day, yearText] = m as unknown as [string, string, string, string];
    const year = yearText.length === 4 ? Number(yearText) : Number(yearText) + (Number(yearText) <= 30 ? 2000 : 1900);
    const pad = (n: string) => n.padStart(2, '0');
    const p: GoldDate['precision'] = month === '[]' ? 'year' : day === '[]' ? 'month' : 'full';
    values.push(p === 'full' ? `${year}-${pad(month)}-${pad(day)}` : p === 'month' ? `${year}-${pad(month)}` : `${year}`);
    if (rank[p] > rank[precision]) precision = p;
  }
  return { precision, values, raw: field };
}

/** The `*_context` fields are Python list literals: "['May 8, 2014', \"8th day of May\"]". */
function parsePythonList(field: string): string[] {
  return [...field.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? m[2] ?? '').replace(/\\(.)/g, '$1'));
}

export function loadContracts(): Contract[] {
  return readFileSync(path.join(CUAD_DIR, 'gold_metadata.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { txt_file: string; parties: string; agreement_date: string; agreement_date_context: string })
    .map((row) => ({
      file: row.txt_file,
      text: readFileSync(path.join(CUAD_DIR, 'full_contract_txt', row.txt_file), 'utf8'),
      parties: parseParties(row.parties),
      partiesRaw: row.parties,
      agreementDate: parseGoldDate(row.agreement_date),
      agreementDateContext: parsePythonList(row.agreement_date_context),
    }));
}
