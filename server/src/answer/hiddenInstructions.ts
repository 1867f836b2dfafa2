// Hidden text never reaches the model (the parsers leave it out of the passages), but a document
// that hides instructions to an AI assistant is suspect as a whole: whenever it is a source, Ask
// warns about it, quoting what it hid, so the person asking can weigh what it says.

import type { AnswerSource, InjectionWarning } from '../../../shared/types.ts';
import type { WorkspaceStore } from '../store/contract.ts';

/** The warning's kind, in the words shown to the user. */
export const HIDDEN_INSTRUCTIONS = 'this document contains hidden text addressed to an AI assistant; it was left out of what the model saw';

/** The hidden sentences addressed to an AI assistant, per item, for the items flagged `hidden_instructions`. */
export async function hiddenInstructionsOf(store: WorkspaceStore, itemIds: Iterable<string>): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const itemId of new Set(itemIds)) {
    const item = await store.getItem(itemId);
    if (!item?.flags.includes('hidden_instructions')) continue;
    const parsed = await store.getParsedText(itemId);
    const sentences = (parsed?.document.hidden ?? []).flatMap((finding) => finding.instructions);
    if (sentences.length > 0) found.set(itemId, [...new Set(sentences)]);
  }
  return found;
}

/** One warning per hidden sentence, on the first source from each such document. */
export function hiddenInstructionWarnings(sources: readonly AnswerSource[], byItem: ReadonlyMap<string, readonly string[]>): InjectionWarning[] {
  const warned = new Set<string>();
  const warnings: InjectionWarning[] = [];
  for (const source of sources) {
    const sentences = byItem.get(source.item_id);
    if (!sentences || warned.has(source.item_id)) continue;
    warned.add(source.item_id);
    for (const text of sentences) warnings.push({ label: source.label, kind: HIDDEN_INSTRUCTIONS, text });
  }
  return warnings;
}
