// `relata original <path>`: a person says which of byte-identical files is the original. That
// file becomes the item that is parsed, searched and related; the former original becomes its
// copy. The choice is kept in the store, and no later run displaces an established original.

import path from 'node:path';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { itemAtPath } from '../itemPath.ts';
import { openRecordedFolderIndex } from '../openStore.ts';
import { terminalProgress } from '../progressBar.ts';
import { terminalLine } from '../terminalText.ts';
import { UsageError } from '../usage.ts';

export const originalCommand: Command = {
  name: 'original',
  summary: 'make this copy the original of its identical files (kept across runs)',
  usage: `relata original <path> [--embedding-model default|none|DIR] [--data DIR] [--workspace NAME] [--json]

  <path>            a file the index holds as a copy of another, absolute or relative to the current directory
  --embedding-model the model its passages are embedded with (as given to relata index)
${COMMON_USAGE}`,
  options: { ...COMMON_OPTIONS, 'embedding-model': { type: 'string' } },
  async run({ values, positionals, out }) {
    if (positionals.length !== 1) throw new UsageError('original needs exactly one file path');
    const { index, resolved: chosenPath } = await openRecordedFolderIndex(
      values,
      path.dirname(path.resolve(positionals[0]!)),
      async (store, root) => (await itemAtPath(store, root, positionals[0]!)).path,
    );
    try {
      const progress = terminalProgress('reading the new original');
      const { itemId, formerOriginalId } = await index.chooseOriginal(chosenPath, { onProgress: (update) => progress.update(update) });
      progress.stop();
      const former = await index.store.getItem(formerOriginalId);
      const summary = { original: chosenPath, item_id: itemId, former_original: former?.path ?? formerOriginalId };
      out(
        values.json
          ? JSON.stringify(summary, null, 2)
          : `${terminalLine(chosenPath)} is now the original; ${terminalLine(summary.former_original)} is identical to it`,
      );
      return 0;
    } finally {
      await index.close();
    }
  },
};
