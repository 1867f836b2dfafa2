// `relata entities`: every entity key of the workspace with its type, corpus frequency (the
// number of items that mention it, which discounts common entities in relationship scoring) and
// the items that mention it; a name only the model stage found says so.

import { MODEL_FOUND_LABEL } from '../../../../shared/types.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { openExistingStore } from '../openStore.ts';
import { terminalLine } from '../terminalText.ts';

export const entitiesCommand: Command = {
  name: 'entities',
  summary: 'list entity keys with type, frequency and items',
  usage: `relata entities [--data DIR] [--workspace NAME] [--json]

${COMMON_USAGE}`,
  options: COMMON_OPTIONS,
  async run({ values, out }) {
    const { store } = await openExistingStore(values, process.cwd(), 'read');
    try {
      const items = new Map((await store.listItems()).map((item) => [item.id, item.path]));
      const entities = (await store.entitySummaries()).map((entity) => ({
        key: entity.key,
        type: entity.type,
        surface: entity.surface,
        frequency: entity.frequency,
        items: entity.itemIds.map((id) => items.get(id) ?? id),
        ...(entity.byModelOnly ? { found_by: 'model' as const } : {}),
      }));
      if (values.json) {
        out(JSON.stringify({ workspace: store.workspace, entities }, null, 2));
        return 0;
      }
      out(
        entities
          .map(
            (entity) =>
              `${String(entity.frequency).padStart(4)}  ${entity.type.padEnd(12)} ${terminalLine(entity.surface)}  ` +
              `(${entity.items.map(terminalLine).join(', ')})${entity.found_by ? ` [${MODEL_FOUND_LABEL}]` : ''}`,
          )
          .join('\n') || 'no entities',
      );
      return 0;
    } finally {
      await store.close();
    }
  },
};
