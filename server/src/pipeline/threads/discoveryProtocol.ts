// Messages between the discover stage (main thread) and its discovery thread (discoveryThread.ts,
// discoveryInThread.ts), typed once for both sides.

import type { MessagePort } from 'node:worker_threads';
import type { DiscoverOptions, DiscoverOutcome } from '../../discover/discoverItem.ts';
import type { StoreLocation } from '../../store/location.ts';

/** What the thread needs to open its own connection to the store. */
export interface DiscoveryThreadData {
  location: StoreLocation;
  workspace: string;
  /** Its end of a channel to the process's shared vector graph (store/sqlite/sharedGraph.ts), if there is one. */
  sharedGraph?: MessagePort;
}

/** A failure as it crossed the thread: enough of the error and its causes for the worker to tell the store's faults from the item's. */
export interface CrossedError {
  name: string;
  message: string;
  code?: string;
  cause?: CrossedError;
}

export type ToDiscoveryThread =
  /** Discover one item; the options are those discoverItem takes, less the classifier, which lives on the main thread. */
  | { type: 'discover'; job: number; itemId: string; options: Omit<DiscoverOptions, 'classifier'> }
  /** The folder is closing: the thread closes its connection and ends. */
  | { type: 'close' };

export type FromDiscoveryThread = { type: 'done'; job: number; outcome: DiscoverOutcome } | { type: 'failed'; job: number; error: CrossedError };

/** The error and its causes (a few deep), with the names and codes the worker reads (store/transientFailure.ts, storeFault.ts). */
export function crossed(error: unknown, depth = 0): CrossedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message: error.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(error.cause !== undefined && depth < 4 ? { cause: crossed(error.cause, depth + 1) } : {}),
  };
}

/** The error again on this side of the thread. */
export function uncrossed(error: CrossedError): Error {
  const rebuilt = new Error(error.message, error.cause ? { cause: uncrossed(error.cause) } : undefined);
  rebuilt.name = error.name;
  if (error.code !== undefined) Object.assign(rebuilt, { code: error.code });
  return rebuilt;
}
