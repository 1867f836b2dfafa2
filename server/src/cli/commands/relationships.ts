// `relata relationships`: the proposals and decisions of the workspace, each with the signals
// whose arithmetic gives its score. Pending proposals below the storage threshold (evidence that
// weakened after the item changed) are left out unless --all.
//
// The text is short by default: one line per signal that moved the strength, each sentence that
// explains a kind of signal said once in the listing, and a byte-identical copy's link to its
// original shown as the copy it is (the index summary's "reported, not stored twice"), not as a
// proposal waiting for review. --explain prints every signal with every sentence; --json is the
// stored views, complete.

import { describeChangeSinceDecision } from '../../../../shared/decisionChange.ts';
import type { ItemRef, RelationshipStatus, RelationshipView } from '../../../../shared/types.ts';
import { signalName, typeVerb } from '../../../../shared/wording.ts';
import { describeStatus, listRelationshipViews } from '../../engine/relationships.ts';
import { scoreSignals, thresholdsFromEnv } from '../../scoring/index.ts';
import type { WorkspaceStore } from '../../store/contract.ts';
import { didYouMean } from '../closestName.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { itemAtPath } from '../itemPath.ts';
import { openExistingStore } from '../openStore.ts';
import { terminalLine } from '../terminalText.ts';
import { UsageError } from '../usage.ts';

const STATUSES: readonly RelationshipStatus[] = ['pending', 'confirmed', 'rejected'];

export const relationshipsCommand: Command = {
  name: 'relationships',
  summary: 'list relationship proposals and decisions, with their signals',
  usage: `relata relationships [--status pending|confirmed|rejected] [--item PATH] [--all] [--explain] [--data DIR] [--workspace NAME] [--json]

  --status S        only relationships with this review status
  --item PATH       only relationships of the item at this path
  --all             include pending proposals that fell below the storage threshold
  --explain         every signal, those that added nothing too, each with every sentence of its explanation
${COMMON_USAGE}`,
  options: { ...COMMON_OPTIONS, status: { type: 'string' }, item: { type: 'string' }, all: { type: 'boolean' }, explain: { type: 'boolean' } },
  async run({ values, out }) {
    const status = values.status as RelationshipStatus | undefined;
    if (status !== undefined && !STATUSES.includes(status)) {
      throw new UsageError(`--status must be one of ${STATUSES.join(', ')}, not "${status}"${didYouMean(status, STATUSES)}`);
    }
    const { store, root } = await openExistingStore(values, process.cwd(), 'read');
    try {
      const itemId = values.item ? (await itemAtPath(store, root, values.item as string)).id : undefined;
      const views = await listRelationshipViews(store, thresholdsFromEnv(), { status, itemId, includeWeak: Boolean(values.all), oneVoice: true });
      if (values.json) out(JSON.stringify(views, null, 2));
      else out(formatRelationships(views, await copyLinks(store, views), { explain: values.explain === true }));
      return 0;
    } finally {
      await store.close();
    }
  },
};

/**
 * The pending proposals that only restate a byte-identical copy: a link between an item stored as
 * a duplicate (status "duplicate", reported at indexing) and the item it duplicates. A person's
 * decision on one is kept and shown as any decision is.
 */
export async function copyLinks(store: WorkspaceStore, views: readonly RelationshipView[]): Promise<Map<string, CopyLink>> {
  const duplicateOf = new Map<string, string | null>();
  const originalOf = async (itemId: string) => {
    if (!duplicateOf.has(itemId)) duplicateOf.set(itemId, (await store.getItem(itemId))?.duplicateOf ?? null);
    return duplicateOf.get(itemId);
  };
  const links = new Map<string, CopyLink>();
  for (const view of views) {
    if (view.status !== 'pending') continue;
    if ((await originalOf(view.from.item_id)) === view.to.item_id) links.set(view.id, { copy: view.from, original: view.to });
    else if ((await originalOf(view.to.item_id)) === view.from.item_id) links.set(view.id, { copy: view.to, original: view.from });
  }
  return links;
}

export interface CopyLink {
  copy: ItemRef;
  original: ItemRef;
}

export interface RelationshipText {
  /** Every signal with every sentence, those worth nothing too. */
  explain: boolean;
  /** The explanatory sentences already printed in this listing (compact text says each once). */
  said?: Set<string>;
}

/** The whole listing: a line on how to read it, the relationships, then the copies' links as notes. */
export function formatRelationships(views: readonly RelationshipView[], copies: ReadonlyMap<string, CopyLink>, text: RelationshipText): string {
  const proposals = views.filter((view) => !copies.has(view.id));
  const notes = [...copies].map(([id, { copy, original }]) => `  ${terminalLine(copy.path)}: copy of ${terminalLine(original.path)} (${id})`);
  if (proposals.length === 0 && notes.length === 0) return 'no relationships';
  const said = new Set<string>();
  return [
    readingGuide(text.explain),
    ...proposals.map((view) => `\n${formatRelationship(view, { ...text, said })}`),
    ...(notes.length > 0 ? ['', 'Copies (byte-identical, reported at indexing, not stored twice; not proposals):', ...notes] : []),
  ].join('\n');
}

function readingGuide(explain: boolean): string {
  const strength = 'Strength is a heuristic under the scoring version named, not a probability; a signal line reads strength × weight (× repeat factor) = its share.';
  return explain ? strength : `${strength}\nSignals that added nothing are left out and each explanation is said once: --explain for all of it.`;
}

/** One relationship: its ends, strength and status, its signals, and what a person decided. */
export function formatRelationship(view: RelationshipView, text: RelationshipText = { explain: false }): string {
  const name = (ref: RelationshipView['from']) => terminalLine(ref.path);
  const { contributions } = scoreSignals(view.signals);
  const said = text.said ?? new Set<string>();
  const shown = text.explain ? contributions : contributions.filter(({ contribution }) => contribution !== 0);
  const lines = [
    `${view.id}  ${name(view.from)} ${typeVerb(view.type).toUpperCase()} ${name(view.to)}`,
    `  strength ${view.score.toFixed(2)} (${view.score_version}${text.explain ? '; a heuristic strength, not a probability' : ''}), ${describeStatus(view.status)}` +
      (view.near_duplicate ? ', likely near-duplicate (never merged)' : ''),
    ...shown.map(({ signal, factor, contribution }) => {
      const detail = text.explain ? signal.detail : sentencesToSay(signal.detail, signal.value, said);
      return (
        `  ${signalName(signal.type).padEnd(20)} ${signal.value}: ${signal.strength.toFixed(2)} × ${signal.weight.toFixed(2)}` +
        `${factor === 1 ? '' : ` × ${factor}`} = ${contribution.toFixed(3)}.${detail ? ` ${terminalLine(detail)}` : ''}`
      );
    }),
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

/**
 * The sentences of a signal's detail worth printing on its line: what it found (a sentence naming
 * the signal's value, such as "the sources give different figures for cost: 51500 and 42000")
 * always; a sentence that explains its kind ("Both items refer to this person.") only the first
 * time the listing meets it.
 */
function sentencesToSay(detail: string, value: string, said: Set<string>): string {
  const found = value.toLowerCase();
  return sentencesOf(detail)
    .filter((sentence) => {
      if (sentence.toLowerCase().includes(found)) return true;
      if (said.has(sentence)) return false;
      said.add(sentence);
      return true;
    })
    .join(' ');
}

/** A title or initial before a full stop ("Mr.", "Ltd.", "J.") does not end a sentence. */
const ABBREVIATION = /(?:^|\s)(?:Mr|Ms|Mrs|Dr|Prof|St|Ltd|Inc|Co|No|vs|etc|e\.g|i\.e|[A-Z])\.$/;

export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  for (const piece of text.trim().split(/(?<=[.!?])\s+(?=["“(]?[A-Z0-9])/)) {
    const last = sentences.at(-1);
    if (last !== undefined && ABBREVIATION.test(last)) sentences[sentences.length - 1] = `${last} ${piece}`;
    else if (piece) sentences.push(piece);
  }
  return sentences;
}
