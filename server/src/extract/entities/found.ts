// What each finder returns: an entity before index.ts labels it with its producer and version,
// so the finders stay free of versioning and cannot disagree about it.

import type { Entity } from '../types.ts';

export type Found = Omit<Entity, 'producer' | 'extractorVersion'>;
