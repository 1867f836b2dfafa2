// `relata items`: every live item of the workspace with its status.

import { itemViews } from '../../engine/itemViews.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { openExistingStore } from '../openStore.ts';
import { terminalLine } from '../terminalText.ts';

export const itemsCommand: Command = {
  name: 'items',
  summary: 'list items with status, parser version and flags',
  usage: `relata items [--data DIR] [--workspace NAME] [--json]

${COMMON_USAGE}`,
  options: COMMON_OPTIONS,
  async run({ values, out }) {
    const { store } = await openExistingStore(values, process.cwd(), 'read');
    try {
      const items = await itemViews(store);
      if (values.json) {
        out(JSON.stringify({ workspace: store.workspace, items }, null, 2));
        return 0;
      }
      out(
        items
          .map((item) => {
            const flags = item.flags.length ? ` [${item.flags.join(', ')}]` : '';
            const why = item.reason ?? (item.duplicateOf ? `duplicate of ${item.duplicateOf}` : '');
            return `${item.status.padEnd(9)} ${terminalLine(item.path)}${flags}${why ? `: ${terminalLine(why)}` : ''}`;
          })
          .join('\n') || 'no items',
      );
      return 0;
    } finally {
      await store.close();
    }
  },
};
