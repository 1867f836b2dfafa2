// `relata aliases`, `relata confirm-alias <id>`, `relata reject-alias <id>`: names Relata thinks
// may be the same person, for a person to decide. Only confirmed aliases count as evidence.

import type { EntityAliasView, RelationshipStatus } from '../../../../shared/types.ts';
import { decideAlias } from '../../engine/aliases.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { openExistingStore } from '../openStore.ts';
import { terminalLine } from '../terminalText.ts';
import { UsageError } from '../usage.ts';

const STATUSES: readonly RelationshipStatus[] = ['pending', 'confirmed', 'rejected'];

const formatAlias = (alias: EntityAliasView) =>
  `${alias.id}  ${terminalLine(alias.a.surface)} = ${terminalLine(alias.b.surface)}  (${alias.status}${alias.decided_by ? ` by ${terminalLine(alias.decided_by)}` : ''})\n  ${terminalLine(alias.reason)}`;

export const aliasesCommand: Command = {
  name: 'aliases',
  summary: 'list candidate entity aliases (only confirmed ones count as evidence)',
  usage: `relata aliases [--status pending|confirmed|rejected] [--data DIR] [--workspace NAME] [--json]

${COMMON_USAGE}`,
  options: { ...COMMON_OPTIONS, status: { type: 'string' } },
  async run({ values, out }) {
    const status = values.status as RelationshipStatus | undefined;
    if (status !== undefined && !STATUSES.includes(status)) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
    const { store } = await openExistingStore(values, process.cwd(), 'read');
    try {
      const aliases = await store.listAliases(status);
      out(values.json ? JSON.stringify(aliases, null, 2) : aliases.map(formatAlias).join('\n') || 'no aliases');
      return 0;
    } finally {
      await store.close();
    }
  },
};

function aliasDecisionCommand(status: 'confirmed' | 'rejected', name: string, summary: string): Command {
  return {
    name,
    summary,
    usage: `relata ${name} <alias-id> [--note TEXT] [--by NAME] [--data DIR] [--workspace NAME] [--json]

${COMMON_USAGE}`,
    options: { ...COMMON_OPTIONS, note: { type: 'string' }, by: { type: 'string' } },
    async run({ values, positionals, out, log }) {
      if (positionals.length !== 1) throw new UsageError(`${name} needs exactly one alias id (see relata aliases)`);
      const { store } = await openExistingStore(values, process.cwd(), 'write');
      try {
        const decided = await decideAlias(store, positionals[0]!, { status, by: values.by as string | undefined, note: values.note as string | undefined });
        out(values.json ? JSON.stringify(decided, null, 2) : formatAlias(decided.alias));
        log(`${decided.itemsToRediscover} items name either form; their relationships are recomputed at the next relata index or relata reprocess`);
        return 0;
      } finally {
        await store.close();
      }
    },
  };
}

export const confirmAliasCommand = aliasDecisionCommand('confirmed', 'confirm-alias', 'confirm that two names are the same (alias_entity evidence)');
export const rejectAliasCommand = aliasDecisionCommand('rejected', 'reject-alias', 'reject a candidate alias');
