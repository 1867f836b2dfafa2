// `relata forget (<path>... | --all-deleted)`: remove a deleted document's text and bytes from the
// store for good. Deleting a file only tombstones its item (nothing stale is served, but the text
// and bytes stay, so a restored file is recognised); this is how a person asks for them to go.

import path from 'node:path';
import { FolderIndex } from '../../engine/folderIndex.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { openExistingStore } from '../openStore.ts';
import { terminalLine } from '../terminalText.ts';
import { UsageError } from '../usage.ts';
import { leavesFolder } from '../../workspace/folderBoundary.ts';

export const forgetCommand: Command = {
  name: 'forget',
  summary: "remove deleted documents' text, passages, vectors and bytes from the store",
  usage: `relata forget (<path>... | --all-deleted) [--data DIR] [--workspace NAME] [--json]

  <path>...         deleted files to forget (a file still in the folder is refused)
  --all-deleted     every deleted document of the workspace
  Kept: each item's path, id, content hash, dates and versions, and its relationships' history
  (with what they quoted from it redacted).
${COMMON_USAGE}`,
  options: { ...COMMON_OPTIONS, 'all-deleted': { type: 'boolean' } },
  async run({ values, positionals, out, log }) {
    if (Boolean(values['all-deleted']) === positionals.length > 0) throw new UsageError('give either deleted paths or --all-deleted');
    const opened = await openExistingStore(values, process.cwd(), 'write');
    const { root, location } = opened;
    await opened.store.close();
    if (!root) throw new UsageError('this store records no indexed folder');
    const paths = positionals.map((given) => {
      const relative = path.relative(root, path.resolve(given)).split(path.sep).join('/');
      if (leavesFolder(relative)) throw new UsageError(`${path.resolve(given)}: not inside the indexed folder ${root}`);
      return relative;
    });
    const index = await FolderIndex.open({ folder: root, location, workspace: values.workspace as string | undefined, embedding: { kind: 'none' } });
    try {
      const report = await index.forget(values['all-deleted'] ? 'all-deleted' : paths);
      if (!report.log_truncated) log('another process has the store open: its write-ahead log is cleared when that process next checkpoints or closes');
      if (values.json) out(JSON.stringify(report, null, 2));
      else if (report.forgotten.length === 0) out('nothing to forget: no deleted documents');
      else out([`forgot ${report.forgotten.length} deleted document(s); ${report.blobs_removed} original file(s) removed from the store`, ...report.forgotten.map((item) => `  ${terminalLine(item.path)}`)].join('\n'));
      return 0;
    } finally {
      await index.close();
    }
  },
};
