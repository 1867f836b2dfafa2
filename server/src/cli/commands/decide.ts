// `relata confirm <id>` and `relata reject <id>`: a person's review of a proposal. Nothing is
// deleted: the decision adds its signal and the history keeps the proposal as it was.

import { decide } from '../../engine/relationships.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { openExistingStore } from '../openStore.ts';
import { UsageError } from '../usage.ts';
import { formatRelationships } from './relationships.ts';

function decisionCommand(status: 'confirmed' | 'rejected', name: 'confirm' | 'reject', summary: string): Command {
  return {
    name,
    summary,
    usage: `relata ${name} <relationship-id> [--note TEXT] [--by NAME] [--data DIR] [--workspace NAME] [--json]

  --note TEXT       why, kept with the decision
  --by NAME         who decided (default: the OS user)
${COMMON_USAGE}`,
    options: { ...COMMON_OPTIONS, note: { type: 'string' }, by: { type: 'string' } },
    async run({ values, positionals, out }) {
      if (positionals.length !== 1) throw new UsageError(`${name} needs exactly one relationship id (see relata relationships)`);
      const { store } = await openExistingStore(values, process.cwd(), 'write');
      try {
        const view = await decide(store, positionals[0]!, {
          status,
          by: values.by as string | undefined,
          note: values.note as string | undefined,
        });
        out(values.json ? JSON.stringify(view, null, 2) : formatRelationships([view], new Map(), { explain: false }));
        return 0;
      } finally {
        await store.close();
      }
    },
  };
}

export const confirmCommand = decisionCommand('confirmed', 'confirm', 'confirm a relationship proposal (+1.00; nothing is deleted)');
export const rejectCommand = decisionCommand('rejected', 'reject', 'reject a relationship proposal (−1.00; never re-proposed, nothing deleted)');
