// Identifiers a document uses to point at one thing: standards and references (RFC 9110, ISO/IEC
// 27001:2022, PEP 8, CVE-2024-12345, a DOI, an ISBN whose check digit is right, arXiv numbers),
// ticket and document numbers (IR-2026-031, GC-2, ABC-123), gene and product codes (TDP-43,
// APOE4, BRCA1) and serial numbers after a cue ("S/N 4471-AX"). Two files quoting one identifier
// almost certainly concern the same thing, so these are strong evidence once shared.
//
// Not identifiers: version numbers ("v1.2.3", "Rust 1.75": a version says which release, not
// which thing), dates, times, money, page and section references ("Section 3", "Listing 8-1":
// the word before the number is lower-case or title-case, never an upper-case code), ordinary
// hyphenated words, units ("mL/min"), quarters and fiscal years ("Q3-2024", "FY2025"), time zones
// ("UTC-5") and chemical formulas ("CO2"). Keys drop spaces and hyphens and fold case, so
// "RFC 9110", "RFC9110" and "rfc-9110" are `identifier:rfc9110`.

import type { Found } from './found.ts';

/** Standards bodies and series written before a number. ISO/IEC and ISO are one series. */
const STANDARD = /(?<![\p{L}\p{N}_/-])(RFC|BCP|PEP|ISO(?:\/IEC)?|IEC|IEEE|ANSI|ASTM|DIN|BS|EN|NIST SP|ECMA|ITU-T [A-Z])[ \u00a0-]?(\d{1,6}(?:[-.]\d{1,4})*)(?::((?:19|20)\d\d))?(?![\p{L}\p{N}_]|[.-]\d)/gu;
const CVE = /(?<![\p{L}\p{N}_-])(CVE|GHSA|CWE)-(\d{4}-\d{4,7}|\d{1,5}|[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4})(?![\p{L}\p{N}_-])/gu;
const DOI = /(?<![\p{L}\p{N}_/.-])(?:doi:\s?)?(10\.\d{4,9}\/[^\s"<>]+)/giu;
const ARXIV = /(?<![\p{L}\p{N}_])arXiv:\s?(\d{4}\.\d{4,5})(v\d+)?/giu;
const ISBN = /(?<![\p{L}\p{N}_])ISBN(?:-1[03])?:?[ \u00a0]?((?:97[89][ -]?)?\d{1,5}[ -]?\d{1,7}[ -]?\d{1,7}[ -]?[\dX])(?![\p{L}\p{N}_-])/gu;
/** Upper-case code, a hyphen, then digits: IR-2026-031, GC-2, INV-EL-3391, TDP-43, COVID-19. */
const CODE_NUMBER = /(?<![\p{L}\p{N}_./\\:@-])(\p{Lu}[\p{Lu}\p{N}]{1,9}(?:-\p{Lu}[\p{Lu}\p{N}]{0,9})*)-(\d{1,8}(?:-\d{1,8})*[A-Z]?)(?![\p{L}\p{N}_]|[-.]\p{N}|-\p{L})/gu;
/** Letters straight into digits: APOE4, BRCA1, HER2, IL6, S3. At least two capitals. */
const GLUED_CODE = /(?<![\p{L}\p{N}_./\\:@-])(\p{Lu}{2,8}\d{1,4}\p{Lu}?)(?![\p{L}\p{N}_]|[-.]\p{N})/gu;
const SERIAL = /(?<![\p{L}\p{N}_])(?:serial(?: number| no\.?)?|S\/N|SN)[:#]?[ \u00a0]?#?([A-Z0-9][A-Z0-9-]{3,30}[A-Z0-9])(?![\p{L}\p{N}_-])/giu;

/** Prefixes that make a code a date, a time zone, a quarter or a formula rather than an identifier. */
const NOT_CODES = new Set(['Q1', 'Q2', 'Q3', 'Q4', 'H1', 'H2', 'FY', 'UTC', 'GMT', 'CET', 'CEST', 'EST', 'PST', 'PDT', 'EDT', 'BST', 'AD', 'BC']);
const FORMULAS = new Set(['CO2', 'NO2', 'SO2', 'NH3', 'CH4', 'O2', 'N2', 'H2', 'CO3', 'PO4', 'SO4', 'NO3']);
/** Months written upper case: "MAY-2024" is a date. */
const MONTHS = /^(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|SEPT|OCT|NOV|DEC)$/;

function key(text: string): string {
  return `identifier:${text.toLowerCase().replace(/[\s\u00a0-]+/g, '')}`;
}

function push(found: Found[], surface: string, start: number, keyText: string): void {
  found.push({ type: 'identifier', surface, key: key(keyText), start, end: start + surface.length });
}

/** ISBN-10 or ISBN-13 with a correct check digit, as the ISBN-13 digits (one key for both forms). */
export function isbn13(written: string): string | null {
  const digits = written.replace(/[ -]/g, '').toUpperCase();
  if (/^\d{9}[\dX]$/.test(digits)) {
    const sum = [...digits].reduce((total, d, i) => total + (d === 'X' ? 10 : Number(d)) * (10 - i), 0);
    if (sum % 11 !== 0) return null;
    const stem = `978${digits.slice(0, 9)}`;
    const check = (10 - ([...stem].reduce((t, d, i) => t + Number(d) * (i % 2 === 0 ? 1 : 3), 0) % 10)) % 10;
    return `${stem}${check}`;
  }
  if (/^97[89]\d{10}$/.test(digits)) {
    const sum = [...digits].reduce((t, d, i) => t + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
    return sum % 10 === 0 ? digits : null;
  }
  return null;
}

export function findIdentifiers(text: string): Found[] {
  const found: Found[] = [];
  for (const m of text.matchAll(STANDARD)) {
    const series = m[1]!.replace('/IEC', '').replace(/ /g, '');
    // "EN 3" or "BS 5" alone is too short to be a standard's number; an RFC or a PEP is not.
    if (/^(?:EN|BS|DIN|IEC|ANSI|ASTM)$/.test(series) && m[2]!.length < 3) continue;
    push(found, m[0], m.index, `${series}${m[2]!}`);
  }
  for (const m of text.matchAll(CVE)) push(found, m[0], m.index, m[0]);
  for (const m of text.matchAll(DOI)) {
    const doi = m[1]!.replace(/[.,;:!?)\]}'"]+$/, '');
    const surface = m[0].slice(0, m[0].length - (m[1]!.length - doi.length));
    found.push({ type: 'identifier', surface, key: `identifier:doi:${doi.toLowerCase()}`, start: m.index, end: m.index + surface.length });
  }
  for (const m of text.matchAll(ARXIV)) push(found, m[0], m.index, `arxiv:${m[1]!}`);
  for (const m of text.matchAll(ISBN)) {
    const digits = isbn13(m[1]!);
    if (digits !== null) push(found, m[0], m.index, `isbn${digits}`);
  }
  for (const m of text.matchAll(SERIAL)) {
    if (!/\d/.test(m[1]!)) continue;
    const start = m.index + m[0].length - m[1]!.length;
    push(found, m[1]!, start, m[1]!);
  }
  for (const m of text.matchAll(CODE_NUMBER)) {
    const prefix = m[1]!;
    const head = prefix.split('-')[0]!;
    if (NOT_CODES.has(head) || NOT_CODES.has(head.replace(/\d+$/, '')) || MONTHS.test(head)) continue;
    push(found, m[0], m.index, m[0]);
  }
  for (const m of text.matchAll(GLUED_CODE)) {
    const code = m[1]!;
    const letters = code.replace(/\d.*$/, '');
    if (FORMULAS.has(code) || NOT_CODES.has(code) || NOT_CODES.has(letters) || MONTHS.test(letters)) continue;
    push(found, code, m.index, code);
  }
  return found;
}
