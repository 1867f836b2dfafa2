// `relata import <dir>`: a relata-export/1 directory (`relata export`) loaded into an empty store,
// SQLite or MongoDB + Qdrant, chosen by the usual flags: how a backup is restored and how a
// folder moves from one backend to another.

import path from 'node:path';
import { defaultWorkspace } from '../../engine/workspaceName.ts';
import { importFromDirectory, readManifest } from '../../store/exchange/importDir.ts';
import { openStoreWithBlobs } from '../../store/index.ts';
import { defaultDataDir } from '../../store/dataDir.ts';
import { describeLocation, type StoreLocation } from '../../store/location.ts';
import { dataDirOverlap } from '../../workspace/folderBoundary.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { locationForFolder, storeChoice } from '../storeFlags.ts';
import { terminalLine } from '../terminalText.ts';
import { UsageError } from '../usage.ts';

export const importCommand: Command = {
  name: 'import',
  summary: 'load a `relata export` directory into an empty store (a restore, or a move to another backend)',
  usage: `relata import <dir> [<folder>] [--data DIR | --store S --qdrant URL] [--workspace NAME] [--json]

  <dir>             a directory written by \`relata export\`
  <folder>          the folder the store is for (default: the folder the export was made from); when it
                    is another path, the store records that one as its folder
  The store must hold nothing for the workspace yet. Everything is checked (the manifest's format,
  every file's sha-256, every record, every original file's hash) before anything is loaded.
  Afterwards, \`relata index <folder>\` catches up with the folder and queues anything unfinished.
${COMMON_USAGE}`,
  options: COMMON_OPTIONS,
  async run({ values, positionals, out, log }) {
    if (positionals.length < 1 || positionals.length > 2) throw new UsageError('import takes an export directory and at most one folder');
    const dir = path.resolve(positionals[0]!);
    const manifest = await readManifest(dir);
    const given = positionals[1] ?? manifest.source.folderRoot;
    if (!given) throw new UsageError('the export records no folder: name the folder the store is for');
    const folder = path.resolve(given);
    const location = locationForFolder(storeChoice(values), folder);
    if (location.backend === 'sqlite') {
      const overlap = dataDirOverlap(folder, location.dataDir);
      if (overlap) throw new UsageError(overlap);
    }
    const { store, blobs } = await openStoreWithBlobs({ location, workspace: (values.workspace as string | undefined) ?? defaultWorkspace(), access: 'write' });
    try {
      const report = await importFromDirectory({
        dir,
        store,
        blobs,
        where: describeLocation(location),
        folderRoot: folder,
        progress: (message) => log(`relata import: ${message}`),
      });
      const summary = {
        dir,
        format: report.manifest.format,
        store: { backend: location.backend, location: describeLocation(location) },
        workspace: store.workspace,
        folder,
        counts: { ...report.counts, blob: report.blobs },
      };
      if (values.json) out(JSON.stringify(summary, null, 2));
      else {
        const { counts } = summary;
        out(
          `imported ${counts.item} items, ${counts.chunk} passages, ${counts.vector} vectors, ${counts.relationship} relationships, ` +
            `${counts.alias} aliases and ${counts.blob} original files into ${terminalLine(summary.store.location)} (workspace ${terminalLine(store.workspace)}); ` +
            `run \`relata index ${terminalLine(folder)}${terminalLine(sameStoreFlags(location, folder))}\` to catch up with the folder`,
        );
      }
      return 0;
    } finally {
      await store.close();
    }
  },
};

/** What `relata index` needs to find this same store again: nothing for a folder's default data directory. */
function sameStoreFlags(location: StoreLocation, folder: string): string {
  if (location.backend === 'mongodb-qdrant') return ' --store … --qdrant … (the same servers)';
  return path.resolve(location.dataDir) === defaultDataDir(folder) ? '' : ` --data ${location.dataDir}`;
}
