// The relationship panel's words, apart from its DOM so they are tested without a browser: the
// type as the heading and as the verb between the two items, each signal by the name a person
// reads (shared/wording.ts, the one table the trees, hovers and chat use). The identifiers stay
// in the data the panel receives; only these words are shown.

import type { SignalView } from '../../shared/types.ts';
import { signalName, typeName, typeVerb } from '../../shared/wording.ts';

/** The heading: the type as a name, capitalised ("Happened before", "Similar"). */
export function relationshipHeading(type: string): string {
  const name = typeName(type);
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** The words between the two item links, read from `from` to `to`: "happened before", "is similar to". */
export const pairVerb = (type: string) => typeVerb(type);

/** A signal's first two cells: its name in words, and what was observed ("0.89 cosine (similarity, not a probability)"). */
export function signalCells(signal: Pick<SignalView, 'type' | 'value'>): { name: string; value: string } {
  return {
    name: signalName(signal.type),
    value: signal.type === 'semantic_similarity' ? `${signal.value} (similarity, not a probability)` : signal.value,
  };
}
