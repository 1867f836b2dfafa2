// Where a chunk's vectors live in Qdrant. A point's id is derived from what the vector is (the
// scope, the model, the chunk and the window of it), never drawn at random, so embedding a chunk
// again, after a crash or on another worker, overwrites the same points instead of adding copies,
// and any process can name the points of a chunk without asking Qdrant first.

import { createHash } from 'node:crypto';
import type { Scope } from './scope.ts';

/**
 * The namespace of Relata's point ids (RFC 4122 name-based UUIDs need one): a fixed random UUID,
 * so two programs deriving ids from the same names never collide with Relata's.
 */
const POINT_NAMESPACE = Buffer.from('5f0c6e4a9b2d4c1e8a7f3b6d2e9c0a14', 'hex');

/** The parts a vector point's id is derived from; every one of them changes the id. */
export interface PointName {
  workspace: string;
  folder: string;
  modelId: string;
  chunkId: string;
  window: number;
}

/**
 * A version-5 UUID (uuidV5 below): the form Qdrant accepts as a point id. The name is the parts
 * as a JSON array, so no choice of separator inside a workspace, folder or model name can make two
 * different names read the same.
 *
 * The model is part of the name: a model change writes new points beside the old model's rather
 * than over them, so two workers embedding one chunk with different models never overwrite each
 * other's points, and the points of whichever model the coverage record names survive the
 * clean-up of the other's (vectorPoints.ts).
 */
export function vectorPointId(name: PointName): string {
  if (!Number.isInteger(name.window) || name.window < 0) throw new Error(`a vector window is a whole number from 0, not ${name.window} (chunk ${name.chunkId})`);
  return uuidV5(POINT_NAMESPACE, JSON.stringify([name.workspace, name.folder, name.modelId, name.chunkId, name.window]));
}

/** RFC 4122 §4.3: the SHA-1 of the namespace's 16 bytes and the name's UTF-8, with the version and variant bits set. */
export function uuidV5(namespace: Buffer, name: string): string {
  const bytes = createHash('sha1').update(namespace).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50; // version 5
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // the RFC 4122 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The point id of one window of a chunk's vectors in this store's scope. */
export function pointIdIn(scope: Scope, modelId: string, chunkId: string, window: number): string {
  return vectorPointId({ workspace: scope.workspace, folder: scope.folder, modelId, chunkId, window });
}

/** Qdrant collections hold vectors of one size: one collection per dimension, shared by every scope. */
export function vectorCollectionName(dims: number, prefix = DEFAULT_COLLECTION_PREFIX): string {
  if (!Number.isInteger(dims) || dims <= 0 || dims > 65_536) throw new Error(`unsupported vector dimension: ${dims}`);
  return `${prefix}${dims}`;
}

export const DEFAULT_COLLECTION_PREFIX = 'relata_vectors_';
