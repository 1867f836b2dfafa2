// How one side of a disagreement names who states it, the same words in the CLI, the Ask panel
// and @relata: one voice per copy group (relationship-score-v2, rule 6), so three copies of a memo
// read "finance/memo.md and 2 copies", not as three sources agreeing.

import type { ConflictSideView, ConflictVoiceView, ItemRef } from './types.ts';

export function describeVoice(voice: ConflictVoiceView, name: (item: ItemRef) => string = (item) => item.path): string {
  const copies = voice.copies.length;
  return copies === 0 ? name(voice.item) : `${name(voice.item)} and ${copies} ${copies === 1 ? 'copy' : 'copies'}`;
}

export function describeVoices(side: ConflictSideView, name?: (item: ItemRef) => string): string {
  return side.voices.map((voice) => describeVoice(voice, name)).join(', ');
}
