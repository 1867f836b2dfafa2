// The messages between the language server's main thread and a search thread (searchThreads.ts,
// searchThread.ts), typed once for both sides.

import type { MessagePort } from 'node:worker_threads';
import type { RelatedView, SearchResponse } from '../../../shared/types.ts';
import type { RelatedOptions } from '../engine/related.ts';
import type { ModelDescriptor } from '../embed/types.ts';
import type { StoreLocation } from '../store/location.ts';
import type { SearchOptions } from './search.ts';

/** What a thread needs to open its own read-only connection to the store. */
export interface SearchThreadData {
  location: StoreLocation;
  workspace: string;
  /** Its end of a channel to the process's shared vector graph (store/sqlite/sharedGraph.ts), if there is one. */
  sharedGraph?: MessagePort;
}

/** A search's options that cross to a thread: everything but the signal and the clock. */
export type ThreadSearchOptions = Pick<SearchOptions, 'limit' | 'confirmedOnly' | 'rankVersion' | 'expansion'>;

/** Related's options that cross to a thread (the model is the store's own choice there, as here). */
export type ThreadRelatedOptions = Pick<RelatedOptions, 'limit' | 'onlyUnlinked' | 'minPendingScore'>;

export type ToSearchThread =
  /** `model`: the query model's descriptor, or null when the search goes without vectors. */
  | { type: 'search'; id: number; query: string; options: ThreadSearchOptions; model: ModelDescriptor | null }
  /** Related for the item at a folder-relative path. */
  | { type: 'related'; id: number; path: string; options: ThreadRelatedOptions }
  | { type: 'cancel'; id: number }
  /** The answer to an embed, relayed by the main thread (a query model that cannot be reached from another thread). */
  | { type: 'embedded'; embedId: number; vectors: Float32Array[] }
  /**
   * The answer to an embed: a port to the query model's thread (embed/modelPort.ts), which the
   * waiting texts and every later query of that model go through, never through the main thread.
   */
  | { type: 'model-port'; embedId: number; port: MessagePort }
  | { type: 'embed-failed'; embedId: number; message: string }
  /** The session is closing: the thread closes its connection and ends. */
  | { type: 'close' };

export type FromSearchThread =
  | { type: 'answer'; id: number; response: SearchResponse }
  | { type: 'related'; id: number; view: RelatedView }
  /** `notRelatable`: the path is no item Related can answer for (RelatedItemError), not a failure. */
  | { type: 'failed'; id: number; message: string; cancelled: boolean; notRelatable?: boolean }
  /**
   * The query model belongs to the main thread (one model for every thread): the thread asks it
   * to embed, and is answered with a port to the model where it can (then asks no more).
   */
  | { type: 'embed'; id: number; embedId: number; texts: string[] };
