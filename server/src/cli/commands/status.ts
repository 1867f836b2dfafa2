// `relata status`: which store and its health, what the pipeline has done and what it still has
// to do. A store server that cannot be reached is a status too: said in one line, exit 1.

import { statSync } from 'node:fs';
import path from 'node:path';
import { thresholdsFromEnv } from '../../scoring/index.ts';
import { unreachableReason, withoutCredentials } from '../../engine/storeRetry.ts';
import { isStoreUnreachable } from '../../store/transientFailure.ts';
import { describeLocation, type StoreLocation } from '../../store/location.ts';
import type { WorkspaceStore } from '../../store/contract.ts';
import { DATABASE_FILE } from '../../store/sqlite/sqliteStore.ts';
import { describeRebuildLeftovers } from '../../store/sqlite/rebuildFiles.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { existingLocation, openExistingStore } from '../openStore.ts';
import { terminalLine } from '../terminalText.ts';
import { EXIT_FAILURE } from '../usage.ts';

/** How long the Qdrant service has to answer its readiness probe. */
const PROBE_TIMEOUT_MS = 5_000;

interface StoreHealth {
  backend: StoreLocation['backend'];
  /** The data directory, or the servers' addresses and the folder's key: never a password. */
  location: string;
  /** SQLite: the database file and its size (with its write-ahead log). */
  file?: string;
  bytes?: number;
  /** SQLite: an interrupted rebuild's files beside the store, each in a sentence. */
  rebuild_leftovers?: string[];
  /** MongoDB + Qdrant: null when reachable, else why not. */
  mongodb?: string | null;
  qdrant?: string | null;
  healthy: boolean;
}

export const statusCommand: Command = {
  name: 'status',
  summary: 'the store and its health, counts per stage and status, relationships to review, queue depth, leases',
  usage: `relata status [--data DIR | --store URI --qdrant URL [--folder F]] [--workspace NAME] [--json]

  Says which store (SQLite, or MongoDB + Qdrant), where (passwords left out) and whether it answers;
  exit status 1 when it does not.
${COMMON_USAGE}`,
  options: COMMON_OPTIONS,
  async run({ values, out }) {
    const location = existingLocation(values, process.cwd());
    let mongodbAnswered = false;
    try {
      const { store, root } = await openExistingStore(values, process.cwd(), 'read');
      mongodbAnswered = true;
      try {
        const text = await statusText(store, root, location, values.json === true);
        out(text.output);
        return text.healthy ? 0 : EXIT_FAILURE;
      } finally {
        await store.close();
      }
    } catch (error) {
      if (location.backend === 'sqlite' || !isStoreUnreachable(error)) throw error;
      // A server is down or refuses: that is the status, with where, and nothing else can be counted.
      const reason = unreachableReason(error);
      const qdrantFailed = (error as { service?: unknown }).service === 'Qdrant' || /\bQdrant\b/.test(reason);
      const health = await mongoQdrantHealth(location, qdrantFailed ? (mongodbAnswered ? null : 'not tried: Qdrant failed first') : reason);
      if (qdrantFailed && health.qdrant === null) health.qdrant = reason;
      health.healthy = false;
      out(values.json ? JSON.stringify({ store: health }, null, 2) : healthLines(health).join('\n'));
      return EXIT_FAILURE;
    }
  },
};

async function statusText(store: WorkspaceStore, root: string | null, location: StoreLocation, json: boolean): Promise<{ output: string; healthy: boolean }> {
  const items = await store.listItems();
  const byStatus: Record<string, number> = {};
  for (const item of items) byStatus[item.status] = (byStatus[item.status] ?? 0) + 1;
  // As the review list shows them: pending proposals at or above the storage threshold, every decision.
  const relationships = { pending: 0, confirmed: 0, rejected: 0 };
  for (const relationship of await store.listRelationships({ minPendingScore: thresholdsFromEnv().storeScore })) {
    relationships[relationship.status] += 1;
  }
  const status = {
    workspace: store.workspace,
    folder: root,
    data_dir: location.backend === 'sqlite' ? location.dataDir : null,
    store: location.backend === 'sqlite' ? sqliteHealth(location) : await mongoQdrantHealth(location, null),
    items: byStatus,
    chunks: await store.countChunks(),
    embedding_models: await store.modelUsage(),
    jobs: await store.jobCounts(),
    relationships,
    aliases_pending: (await store.listAliases('pending')).length,
    queue_depth: await store.pendingJobs(),
    leases: await store.leases(),
  };
  if (json) return { output: JSON.stringify(status, null, 2), healthy: status.store.healthy };
  const lines = [
    `workspace ${status.workspace}: ${status.folder ? terminalLine(status.folder) : '(no folder recorded)'}`,
    ...healthLines(status.store),
    `items: ${Object.entries(byStatus).map(([name, count]) => `${count} ${name}`).join(', ') || 'none'}; chunks: ${status.chunks}`,
    ...status.embedding_models.map(
      (model) => `vectors: ${model.vectors} from ${model.id} (${model.dims} dims, reads ${model.maxTokens} tokens) covering ${model.chunks} chunks`,
    ),
    `relationships: ${relationships.pending} pending review, ${relationships.confirmed} confirmed, ${relationships.rejected} rejected; ` +
      `${status.aliases_pending} candidate aliases to review`,
    `queue depth: ${status.queue_depth}`,
    ...status.jobs.map((row) => `  ${row.stage.padEnd(8)} ${row.status.padEnd(7)} ${row.count}`),
    `leases: ${status.leases.length}`,
    ...status.leases.map(
      (lease) => `  ${lease.stage} ${terminalLine(lease.subject)} held by ${lease.owner}, ${Math.round(lease.expiresInMs / 1000)} s left`,
    ),
  ];
  return { output: lines.join('\n'), healthy: status.store.healthy };
}

function sqliteHealth(location: Extract<StoreLocation, { backend: 'sqlite' }>): StoreHealth {
  const file = path.join(location.dataDir, DATABASE_FILE);
  const size = (name: string) => {
    try {
      return statSync(name).size;
    } catch {
      return 0;
    }
  };
  return {
    backend: 'sqlite',
    location: describeLocation(location),
    file,
    bytes: size(file) + size(`${file}-wal`),
    rebuild_leftovers: describeRebuildLeftovers(location.dataDir).map((leftover) => leftover.message),
    healthy: true,
  };
}

/**
 * MongoDB answered if the store could be read (`mongodbError` null); Qdrant is asked directly, at
 * its readiness probe, since a folder without vectors may never have touched it.
 */
async function mongoQdrantHealth(location: Extract<StoreLocation, { backend: 'mongodb-qdrant' }>, mongodbError: string | null): Promise<StoreHealth> {
  const qdrant = await probeQdrant(location);
  return {
    backend: 'mongodb-qdrant',
    location: describeLocation(location),
    mongodb: mongodbError,
    qdrant,
    healthy: mongodbError === null && qdrant === null,
  };
}

/** Null when the Qdrant service says it is ready; otherwise why not, in one line. */
async function probeQdrant(location: Extract<StoreLocation, { backend: 'mongodb-qdrant' }>): Promise<string | null> {
  const url = new URL('readyz', location.qdrantUrl.endsWith('/') ? location.qdrantUrl : `${location.qdrantUrl}/`);
  try {
    const response = await fetch(url, {
      headers: location.qdrantApiKey ? { 'api-key': location.qdrantApiKey } : {},
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.ok ? null : `Qdrant: ${url.origin} answered ${response.status} ${response.statusText}`.trim();
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') return `Qdrant: no answer from ${url.origin} in ${PROBE_TIMEOUT_MS / 1000} s`;
    if (isStoreUnreachable(error)) return withoutCredentials(unreachableReason(error));
    // fetch's own words are "fetch failed"; why (a refused port, a bad certificate) is in its cause.
    const cause = (error as Error).cause instanceof Error ? ` (${((error as Error).cause as Error).message})` : '';
    return withoutCredentials(`Qdrant: ${(error as Error).message}${cause}`);
  }
}

function healthLines(health: StoreHealth): string[] {
  if (health.backend === 'sqlite') {
    return [
      `store: SQLite ${terminalLine(health.file ?? health.location)} (${formatBytes(health.bytes ?? 0)})`,
      ...(health.rebuild_leftovers ?? []).map((leftover) => `  interrupted rebuild: ${terminalLine(leftover)}`),
    ];
  }
  const state = (reason: string | null | undefined) => (reason ? `unreachable (${terminalLine(reason)})` : 'reachable');
  return [`store: MongoDB + Qdrant ${terminalLine(health.location)}`, `  MongoDB ${state(health.mongodb)}; Qdrant ${state(health.qdrant)}`];
}

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}
