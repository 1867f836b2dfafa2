// The USE-lite embedder's public face: what the rest of Relata imports from this folder.

export { createUseLiteEmbedder, UseLiteEmbedder, type UseLiteOptions } from './useLiteEmbedder.ts';
export { USE_LITE_DESCRIPTOR } from './descriptor.ts';
