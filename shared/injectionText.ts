// The injection warning as a person reads it, first: a source that tries to instruct the model is
// said above the answer (not under it, where it was missed) and marked where the source is listed.
// One wording for the Ask panel and the chat answer; the quoted text stays the caller's to escape.

import type { InjectionWarning } from './types.ts';

/** The sentence above the answer: which sources, and what that means for the answer. */
export function injectionHeadline(warnings: readonly InjectionWarning[]): string | null {
  const labels = [...new Set(warnings.map((warning) => warning.label))];
  if (labels.length === 0) return null;
  const which = labels.length === 1 ? `Source ${labels[0]} contains` : `Sources ${labels.slice(0, -1).join(', ')} and ${labels.at(-1)} contain`;
  return `Caution: ${which} text that tries to instruct the model; it was treated as data, not as instructions. Read this answer against its sources.`;
}

/** One warning in detail: what the text looks like. */
export const injectionDetail = (warning: InjectionWarning) => `Source ${warning.label} tries to instruct the model (${warning.kind}); it was treated as data:`;

/** The mark beside a flagged source in the list. */
export const INJECTION_MARK = 'contains instructions to the model';

export const INJECTION_CAVEAT = 'Detection is best-effort: a passage not flagged is not proven safe.';

/** The labels of the flagged sources, to mark them in the source list. */
export const flaggedSources = (warnings: readonly InjectionWarning[]) => new Set(warnings.map((warning) => warning.label));
