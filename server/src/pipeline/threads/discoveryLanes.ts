// Discovery in several threads at once (the language server's SQLite store): each lane is a
// discovery thread with its own store connection (discoveryInThread.ts), and an item goes to the
// lane with the fewest items in hand. Discovery is the cold index's last phase and, in one lane,
// kept one core busy while the other waited (docs/PERFORMANCE.md, "Discovery in two lanes").
// Two items discovered at once are as safe as two indexers sharing a folder: every write is one
// transaction that applies the pair's decision as it stands, and a new pair's direction does not
// depend on which end was discovered first (discoverItem.ts, orient).

import type { DiscoverOptions, DiscoverOutcome } from '../../discover/discoverItem.ts';
import { DiscoveryThread } from './discoveryInThread.ts';
import type { DiscoveryThreadData } from './discoveryProtocol.ts';
import type { SharedGraph } from '../../store/sqlite/sharedGraph.ts';

export class DiscoveryLanes {
  private readonly threads: DiscoveryThread[];

  /** `sharedGraph`: the process's vector graph, which every lane looks vectors up in (none: each lane keeps its own). */
  constructor(data: DiscoveryThreadData, lanes: number, sharedGraph: SharedGraph | null = null) {
    this.threads = Array.from({ length: Math.max(1, Math.floor(lanes)) }, () => new DiscoveryThread(data, sharedGraph));
  }

  /** Items that may be discovered at the same time. */
  get lanes(): number {
    return this.threads.length;
  }

  discover(itemId: string, options: Omit<DiscoverOptions, 'classifier'>): Promise<DiscoverOutcome> {
    const least = this.threads.reduce((best, thread) => (thread.inHand < best.inHand ? thread : best));
    return least.discover(itemId, options);
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.close()));
  }
}
