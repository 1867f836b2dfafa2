// `relata status`: what the pipeline has done and what it still has to do.

import { thresholdsFromEnv } from '../../scoring/index.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { openExistingStore } from '../openStore.ts';
import { terminalLine } from '../terminalText.ts';

export const statusCommand: Command = {
  name: 'status',
  summary: 'counts per stage and status, relationships to review, queue depth, leases',
  usage: `relata status [--data DIR] [--workspace NAME] [--json]

${COMMON_USAGE}`,
  options: COMMON_OPTIONS,
  async run({ values, out }) {
    const { store, dataDir, root } = await openExistingStore(values, process.cwd(), 'read');
    try {
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
        data_dir: dataDir,
        items: byStatus,
        chunks: await store.countChunks(),
        embedding_models: await store.modelUsage(),
        jobs: await store.jobCounts(),
        relationships,
        aliases_pending: (await store.listAliases('pending')).length,
        queue_depth: await store.pendingJobs(),
        leases: await store.leases(),
      };
      if (values.json) {
        out(JSON.stringify(status, null, 2));
        return 0;
      }
      const lines = [
        `workspace ${status.workspace}: ${status.folder ? terminalLine(status.folder) : '(no folder recorded)'}`,
        `store ${terminalLine(status.data_dir)}`,
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
      out(lines.join('\n'));
      return 0;
    } finally {
      await store.close();
    }
  },
};
