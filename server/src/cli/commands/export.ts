// `relata export <dir>`: the whole store of a folder, for one workspace, written as a
// relata-export/1 directory (store/exchange/, docs/EXPORT_FORMAT.md): a backup, or the way to move
// the folder to another backend with `relata import`.

import path from 'node:path';
import { defaultWorkspace } from '../../engine/workspaceName.ts';
import { exportToDirectory } from '../../store/exchange/exportDir.ts';
import { openStoreWithBlobs } from '../../store/index.ts';
import { describeLocation } from '../../store/location.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { existingLocation } from '../openStore.ts';
import { terminalLine } from '../terminalText.ts';
import { UsageError } from '../usage.ts';

export const exportCommand: Command = {
  name: 'export',
  summary: "write a folder's whole store (items, bytes, passages, vectors, relationships, decisions) to a directory",
  usage: `relata export <dir> [<folder>] [--data DIR] [--workspace NAME] [--json]

  <dir>             a new or empty directory to write the export into
  <folder>          the indexed folder whose store to export (default: the one containing the current directory)
  Writes manifest.json, one JSON Lines file per kind of record and blobs/<sha256> (docs/EXPORT_FORMAT.md).
  The job queue is not exported: after \`relata import\`, \`relata index\` queues whatever is unfinished.
${COMMON_USAGE}`,
  options: COMMON_OPTIONS,
  async run({ values, positionals, out, log }) {
    if (positionals.length < 1 || positionals.length > 2) throw new UsageError('export takes a target directory and at most one folder');
    const dir = path.resolve(positionals[0]!);
    const location = existingLocation(values, positionals[1] ?? process.cwd());
    const { store, blobs } = await openStoreWithBlobs({ location, workspace: (values.workspace as string | undefined) ?? defaultWorkspace(), access: 'read' });
    try {
      const manifest = await exportToDirectory({
        store,
        blobs,
        dir,
        source: { backend: location.backend, location: describeLocation(location) },
        progress: (message) => log(`relata export: ${message}`),
      });
      if (values.json) out(JSON.stringify({ dir, ...manifest }, null, 2));
      else {
        const { counts } = manifest;
        out(
          `exported workspace ${terminalLine(manifest.source.workspace)} to ${terminalLine(dir)}: ${counts.item} items, ${counts.chunk} passages, ` +
            `${counts.vector} vectors, ${counts.relationship} relationships, ${counts.alias} aliases, ${counts.blob} original files`,
        );
        if (manifest.missingBlobs.length > 0) out(`${manifest.missingBlobs.length} original file(s) were missing or damaged in the store and are not in the export (run \`relata check\`)`);
      }
      return 0;
    } finally {
      await store.close();
    }
  },
};
