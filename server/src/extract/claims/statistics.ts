// Numbers that report a statistic rather than state a figure: confidence intervals ("95% CI
// 1.2–2.3"), hazard, odds and risk ratios ("HR 1·67", "OR, 0.29"), p-values ("p < 0.05",
// "P = .003"), sample sizes ("n = 120"), dispersions ("± 4.2", "SD 10.6"), the denominator of a
// rate ("mL/min per 1.73 m²", "HR per 10 mm Hg") and the step of a per-unit effect ("for each 1%
// increase"). Read as figures they became claims that are not there: on SciFact "HR 1·67; 95% CI"
// was a 95% increase and "per 1.73 m²" a length. They are blanked with the other non-figures
// (masks.ts) so no figure, and so no claim, is read from them.

type Span = [start: number, end: number];

// A decimal as papers write it, with a point or a middle dot ("1·67"), or a leading point (".003").
const NUM = '[+\\-−]?(?:\\d[\\d,]*(?:[.·]\\d+)?|[.·]\\d+)';

/** The confidence level and its interval, up to the bracket or semicolon that closes it. */
const INTERVAL = new RegExp(
  `\\b\\d{2}(?:[.·]\\d+)?\\s?%\\s*(?:CIs?|CrI|UI|PI|(?:confidence|credible|uncertainty|prediction) (?:intervals?|limits?))\\b` +
    `(?:\\s*[\\[(](?:CIs?|CrI|UI|PI)[\\])])?[^;)\\]]{0,60}`,
  'gi',
);
/** An interval named without its level: "(CI 0.80-1.16)". */
const BARE_INTERVAL = /\b(?:CIs?|CrI)\b[^;)\]]{0,60}/g;

/** A measure, an optional abbreviation or qualifier ("[ARR]", "per 10 mm Hg"), then its value. */
const measured = (names: string, flags: string): RegExp =>
  new RegExp(
    `(?<![\\w])(?:${names})(?![\\w])(?:\\s*[\\[(][A-Za-z]{1,5}[\\])])?(?:\\s+per\\s+[^,;:=()\\[\\]]{1,30}?)?` +
      `\\s*(?:[:,=]|was|of|is)?\\s*${NUM}\\s*%?`,
    flags,
  );
/** Abbreviations keep their case, so "OR" is never the word "or". */
const RATIO_ABBREVIATIONS = measured('a?HRs?|a?ORs?|a?RRs?|IRRs?|SHRs?|sHRs?|ARR|RRR|NNT|NNH|SMD|WMD|MD|AUC|SD|SEM?|IQR', 'g');
const RATIO_WORDS = measured(
  '(?:adjusted |pooled |crude |summary )?(?:hazard|odds|risk|rate|incidence rate) ratios?|relative (?:risks?|hazards?)|' +
    '(?:absolute|relative) risk reductions?|(?:weighted |standardi[sz]ed )?mean differences?|standard (?:deviations?|errors?)|' +
    'interquartile ranges?|correlation coefficients?|number needed to (?:treat|harm)',
  'gi',
);

/** "p < 0.05", "P = .003", "p for trend = 0·02", "P<.001". */
const P_VALUE = new RegExp(`\\b[pP](?:\\s*(?:-?value|for (?:linear )?(?:trend|interaction|heterogeneity)))?\\s*[=<>≤≥]\\s*${NUM}`, 'g');
/** "n = 120", "N=10 631". */
const SAMPLE_SIZE = /\b[nN]\s*=\s*\d(?:[\d,\u00a0\u202f\u2009 ]*\d)?/g;
/** "93 ± 21", "±4.2%". */
const DISPERSION = new RegExp(`±\\s*${NUM}\\s*%?`, 'g');
/**
 * A rate's denominator: "per 1.73 m²", "/1.73 m(2)", "per 100 000 person-years". A slash is read
 * only before the body-surface area, since "05/06/2025" is a date.
 */
const DENOMINATOR = new RegExp(`\\bper\\s+${NUM}(?:\\s*(?:m(?:²|2|\\(2\\)|\\^2)|[A-Za-z][\\w-]*))?|/\\s*1[.·]73\\s*m(?:²|2|\\(2\\)|\\^2)?`, 'g');
/** The step of a per-unit effect: "for each 1% increase", "per 1-SD increment", "for every 10 mm Hg rise". */
const STEP = new RegExp(
  `\\b(?:for (?:each|every)|per|each)\\s+(?:one\\s+|${NUM}\\s*)(?:[%\\w/·-]+\\s+){0,3}?(?:increase|decrease|increment|rise|reduction|change|higher|lower)\\b`,
  'gi',
);
/** Blood pressure and other pressures in millimetres of mercury or centimetres of water are not lengths. */
const PRESSURE = new RegExp(`${NUM}\\s*(?:mm|cm)\\s?(?:Hg|H2O|H₂O)\\b`, 'gi');

function collect(text: string, pattern: RegExp): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(pattern)) if (m[0].trim() !== '') spans.push([m.index, m.index + m[0].length]);
  return spans;
}

/** Spans of text that report statistics; their numbers are not figures. */
export function statisticSpans(text: string): Span[] {
  return [
    INTERVAL,
    BARE_INTERVAL,
    RATIO_ABBREVIATIONS,
    RATIO_WORDS,
    P_VALUE,
    SAMPLE_SIZE,
    DISPERSION,
    DENOMINATOR,
    STEP,
    PRESSURE,
  ].flatMap((pattern) => collect(text, pattern));
}
