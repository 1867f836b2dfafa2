// A store whose every call is timed and counted by name: where a search's time goes, store call
// by store call (bench:search, bench:folderSearch).

import type { WorkspaceStore } from '../../server/src/store/contract.ts';

export type StoreCallTimes = Map<string, { ms: number; calls: number }>;

/** Store calls a search makes, timed and counted per call name: where a search's time goes, path by path. */
export function timedStore(store: WorkspaceStore, spent: StoreCallTimes): WorkspaceStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await (value as (...args: unknown[]) => unknown).apply(target, args);
        } finally {
          const entry = spent.get(String(key)) ?? { ms: 0, calls: 0 };
          spent.set(String(key), { ms: entry.ms + performance.now() - started, calls: entry.calls + 1 });
        }
      };
    },
  });
}

