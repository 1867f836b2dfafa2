// The messages between a store that looks vectors up through the process's shared graph
// (sharedGraphClient.ts) and the thread that holds it (sharedGraphThread.ts), typed once for both.

import type { MessagePort } from 'node:worker_threads';
import type { VectorHit } from '../contract.ts';
import type { StoreLocation } from '../location.ts';
import type { VectorIndexSettings } from './vectorIndex.ts';

/** What the thread needs to open its own connection to the store. */
export interface SharedGraphData {
  location: Extract<StoreLocation, { backend: 'sqlite' }>;
  workspace: string;
  /** Settings other than the measured defaults (tests). */
  settings?: Partial<VectorIndexSettings>;
}

/** From the owner of the thread (sharedGraph.ts). */
export type ToSharedGraphThread =
  /** A store's end of a new channel: its look-ups come through it. */
  | { type: 'connect'; port: MessagePort }
  /** The folder is closing: the thread saves what it has not, closes its connection and ends. */
  | { type: 'close' };

/** From a store, through its port. */
export type GraphRequest =
  /** Look-ups as VectorIndexOptions.exactWhileCatchingUp of the asking store says (discovery's exact, the searches' not). */
  | { type: 'search'; id: number; modelId: string; queries: Float32Array[]; k: number; exactWhileCatchingUp: boolean }
  | { type: 'ready'; id: number; modelId: string };

export type GraphAnswer =
  | { type: 'hits'; id: number; hits: VectorHit[][] }
  | { type: 'ready'; id: number; ready: boolean }
  | { type: 'failed'; id: number; message: string };
