// "Relata: Filter Proposals": narrow the Proposals view by type, review status and minimum
// strength with quick picks; the choice is remembered per workspace by the view.

import * as vscode from 'vscode';
import type { RelationshipStatus, RelationshipType } from '../../../shared/types.ts';
import { describeFilter, isFiltered, NO_FILTER, parseMinStrength, STATUSES, type ProposalFilter } from './proposalFilter.ts';
import type { ProposalsView } from './proposalsView.ts';
import { typeName } from '../../../shared/wording.ts';
import { lookOf, REVIEW_ORDER } from './relationshipLook.ts';

/** Several of `all`, the current ones picked; every one or none picked means no narrowing (null). */
async function pickSome<T extends string>(title: string, all: readonly T[], current: readonly T[] | null, item: (value: T) => vscode.QuickPickItem): Promise<T[] | null | undefined> {
  const items = all.map((value) => ({ ...item(value), value, picked: current === null || current.includes(value) }));
  const picked = await vscode.window.showQuickPick(items, { title, canPickMany: true, placeHolder: 'Pick the ones to show (none or all: show every one)' });
  if (!picked) return undefined;
  return picked.length === 0 || picked.length === all.length ? null : picked.map((entry) => entry.value);
}

export async function filterProposals(view: ProposalsView): Promise<void> {
  const filter = view.filter;
  const choice = await vscode.window.showQuickPick(
    [
      { label: '$(symbol-enum) Types…', description: filter.types?.map(typeName).join(', ') ?? 'all', part: 'types' as const },
      { label: '$(check-all) Review status…', description: filter.statuses?.join(', ') ?? 'all', part: 'statuses' as const },
      { label: '$(dashboard) Minimum strength…', description: filter.minStrength > 0 ? filter.minStrength.toFixed(2) : 'none', part: 'minStrength' as const },
      ...(isFiltered(filter) ? [{ label: '$(clear-all) Show everything', description: describeFilter(filter), part: 'clear' as const }] : []),
    ],
    { title: 'Filter Proposals' },
  );
  if (!choice) return;
  let next: ProposalFilter | undefined;
  if (choice.part === 'clear') next = NO_FILTER;
  else if (choice.part === 'types') {
    const types = await pickSome<RelationshipType>('Show these relationship types', REVIEW_ORDER, filter.types, (type) => ({
      label: `$(${lookOf(type).icon}) ${typeName(type)}`,
    }));
    if (types !== undefined) next = { ...filter, types };
  } else if (choice.part === 'statuses') {
    const statuses = await pickSome<RelationshipStatus>('Show these review statuses', STATUSES, filter.statuses, (status) => ({ label: status }));
    if (statuses !== undefined) next = { ...filter, statuses };
  } else {
    const text = await vscode.window.showInputBox({
      title: 'Minimum strength',
      prompt: 'Show relationships at or above this strength (0 to 1; a heuristic strength, not a probability). Empty: no minimum.',
      value: filter.minStrength > 0 ? String(filter.minStrength) : '',
      validateInput: (value) => {
        const parsed = parseMinStrength(value);
        return 'problem' in parsed ? parsed.problem : undefined;
      },
    });
    if (text !== undefined) {
      const parsed = parseMinStrength(text);
      if ('value' in parsed) next = { ...filter, minStrength: parsed.value };
    }
  }
  if (next) await view.setFilter(next);
}
