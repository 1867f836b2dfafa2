// `relata relationships`: the proposals and decisions of the workspace, each with the signals
// whose arithmetic gives its score. Pending proposals below the storage threshold (evidence that
// weakened after the item changed) are left out unless --all.

import { describeChangeSinceDecision } from '../../../../shared/decisionChange.ts';
import type { RelationshipStatus, RelationshipView } from '../../../../shared/types.ts';
import { describeStatus, listRelationshipViews } from '../../engine/relationships.ts';
import { scoreSignals, thresholdsFromEnv } from '../../scoring/index.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { itemAtPath } from '../itemPath.ts';
import { openExistingStore } from '../openStore.ts';
import { terminalLine } from '../terminalText.ts';
import { UsageError } from '../usage.ts';

const STATUSES: readonly RelationshipStatus[] = ['pending', 'confirmed', 'rejected'];

export const relationshipsCommand: Command = {
  name: 'relationships',
  summary: 'list relationship proposals and decisions, with their signals',
  usage: `relata relationships [--status pending|confirmed|rejected] [--item PATH] [--all] [--data DIR] [--workspace NAME] [--json]

  --status S        only relationships with this review status
  --item PATH       only relationships of the item at this path
  --all             include pending proposals that fell below the storage threshold
${COMMON_USAGE}`,
  options: { ...COMMON_OPTIONS, status: { type: 'string' }, item: { type: 'string' }, all: { type: 'boolean' } },
  async run({ values, out }) {
    const status = values.status as RelationshipStatus | undefined;
    if (status !== undefined && !STATUSES.includes(status)) {
      throw new UsageError(`--status must be one of ${STATUSES.join(', ')} (got "${status}")`);
    }
    const { store, root } = await openExistingStore(values, process.cwd(), 'read');
    try {
      const itemId = values.item ? (await itemAtPath(store, root, values.item as string)).id : undefined;
      const views = await listRelationshipViews(store, thresholdsFromEnv(), { status, itemId, includeWeak: Boolean(values.all), oneVoice: true });
      out(values.json ? JSON.stringify(views, null, 2) : views.map(formatRelationship).join('\n\n') || 'no relationships');
      return 0;
    } finally {
      await store.close();
    }
  },
};

export function formatRelationship(view: RelationshipView): string {
  const name = (ref: RelationshipView['from']) => terminalLine(ref.path);
  const { contributions } = scoreSignals(view.signals);
  const lines = [
    `${view.id}  ${name(view.from)} ${view.type.toUpperCase()} ${name(view.to)}`,
    `  strength ${view.score.toFixed(2)} (${view.score_version}; a heuristic strength, not a probability), ${describeStatus(view.status)}` +
      (view.near_duplicate ? ', likely near-duplicate (never merged)' : ''),
    ...contributions.map(
      ({ signal, factor, contribution }) =>
        `  ${signal.type.padEnd(20)} ${signal.value}: ${signal.strength.toFixed(2)} × ${signal.weight.toFixed(2)}` +
        `${factor === 1 ? '' : ` × ${factor}`} = ${contribution.toFixed(3)}. ${terminalLine(signal.detail)}`,
    ),
  ];
  if (view.also_stated_by) {
    const count = view.also_stated_by.length;
    lines.push(
      `  also stated by ${count} ${count === 1 ? 'copy' : 'copies'} (one voice with the original, each relationship stored): ` +
        view.also_stated_by.map((statement) => `${name(statement.copy)} (${statement.relationship_id})`).join(', '),
    );
  }
  if (view.decided_by) lines.push(`  decided by ${terminalLine(view.decided_by)} at ${view.decided_at}${view.note ? `: ${terminalLine(view.note)}` : ''}`);
  if (view.changed_since_decision) lines.push(`  ${terminalLine(describeChangeSinceDecision(view.changed_since_decision))}`);
  return lines.join('\n');
}
