// What the extract stage finds in a passage, with where it found it and who found it. Every
// result is labelled by its producer: deterministic rules here; a language model later, which
// may add results but never overrides or deletes a deterministic one. The records themselves are
// the store's too, so they are defined below both (records/extraction.ts).

export type { Claim, ClaimKind, Entity, EntityType, PhraseCount, Producer } from '../records/extraction.ts';
