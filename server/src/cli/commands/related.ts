// `relata related <path>`: what is related to one file, the same list the editor's Related view
// shows: its relationships (type, strength, the evidence in one line), then the items nearest in
// content with their semantic similarity, each marked "linked" or "not linked yet".

import path from 'node:path';
import type { RelatedEntry, RelatedView } from '../../../../shared/types.ts';
import { describeLocation } from '../../../../shared/locationWords.ts';
import { typeVerb } from '../../../../shared/wording.ts';
import { DEFAULT_RELATED_LIMIT, relatedTo, RelatedItemError } from '../../engine/related.ts';
import { describeStatus } from '../../engine/relationships.ts';
import { thresholdsFromEnv } from '../../scoring/index.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { openExistingStore } from '../openStore.ts';
import { terminalLine } from '../terminalText.ts';
import { leavesFolder } from '../../workspace/folderBoundary.ts';
import { EXIT_FAILURE, UsageError } from '../usage.ts';

const MAX_LIMIT = 100;

export const relatedCommand: Command = {
  name: 'related',
  summary: 'what is related to one file: its relationships, then the items nearest in content',
  usage: `relata related <path> [--limit N] [--only-unlinked] [--data DIR] [--workspace NAME] [--json]

  <path>            the file, absolute or relative to the current directory
  --limit N         entries to show, relationships first (default ${DEFAULT_RELATED_LIMIT}, at most ${MAX_LIMIT})
  --only-unlinked   leave out what the documents already link to each other ("not linked yet" only)
${COMMON_USAGE}`,
  options: { ...COMMON_OPTIONS, limit: { type: 'string' }, 'only-unlinked': { type: 'boolean' } },
  async run({ values, positionals, out, log }) {
    if (positionals.length !== 1) throw new UsageError('related needs exactly one file path');
    const limit = values.limit === undefined ? DEFAULT_RELATED_LIMIT : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT} (got "${values.limit}")`);
    const absolute = path.resolve(positionals[0]!);
    const { store, root } = await openExistingStore(values, path.dirname(absolute), 'read');
    try {
      if (!root) throw new UsageError('this store records no indexed folder');
      const relative = path.relative(root, absolute).split(path.sep).join('/');
      if (leavesFolder(relative)) {
        log(`not an item of ${terminalLine(root)}: ${terminalLine(absolute)}`);
        return EXIT_FAILURE;
      }
      let view: RelatedView;
      try {
        view = await relatedTo(store, relative, {
          limit,
          onlyUnlinked: Boolean(values['only-unlinked']),
          minPendingScore: thresholdsFromEnv().storeScore,
        });
      } catch (error) {
        if (!(error instanceof RelatedItemError)) throw error;
        log(terminalLine(error.message));
        return EXIT_FAILURE;
      }
      out(values.json ? JSON.stringify(view, null, 2) : formatRelated(view));
      return 0;
    } finally {
      await store.close();
    }
  },
};

export function formatRelated(view: RelatedView): string {
  const lines = [`related to ${terminalLine(view.item.title ?? view.item.path)} (${terminalLine(view.item.path)})`];
  if (view.entries.length === 0) lines.push('  nothing related yet');
  for (const entry of view.entries) lines.push(...formatEntry(entry));
  if (view.entries.some((entry) => entry.similarity !== null)) lines.push('', `similarity: ${view.similarity_label}`);
  for (const note of view.notes) lines.push(`note: ${terminalLine(note)}`);
  return lines.join('\n');
}

function formatEntry(entry: RelatedEntry): string[] {
  const name = `${terminalLine(entry.item.path)}${entry.item.title ? ` — ${terminalLine(entry.item.title)}` : ''}`;
  const linked = entry.linked ? 'linked' : 'not linked yet';
  const relationship = entry.relationship;
  const head = relationship
    ? `  ${typeVerb(relationship.type, relationship.direction === 'incoming' ? 'backward' : 'forward')}  ${name}`
    : `  ${entry.kind === 'nearby' ? 'nearby' : 'similar content'}  ${name}`;
  const number = relationship
    ? `strength ${relationship.strength.toFixed(2)} (${relationship.score_version}, not a probability), ${describeStatus(relationship.status)}`
    : entry.similarity !== null
      ? `similarity ${entry.similarity.toFixed(2)} (cosine)`
      : 'no similarity measured';
  return [
    head,
    `    ${number}; ${linked}`,
    ...(relationship ? [`    evidence: ${terminalLine(relationship.evidence)}`] : []),
    ...(entry.why.length > 0 ? [`    why: ${entry.why.map(terminalLine).join('; ')}`] : []),
    ...(entry.passage ? [`    closest passage: ${terminalLine(describeLocation(entry.passage.location, entry.item.path))}`] : []),
  ];
}
