// `relata search "<query>"`: the workspace's items ranked for a query, each with why it matched,
// its relevance (relative to this result set), its semantic similarity (apart from relevance) and
// the passage to open. Works with lexical paths alone while vectors are still being computed.

import { describeAlso } from '../../../../shared/alsoText.ts';
import { WEAK_MATCH_NOTICE } from '../../../../shared/searchText.ts';
import type { Location, SearchResponse } from '../../../../shared/types.ts';
import { embeddingChoiceFromEnv, parseEmbeddingChoice } from '../../embed/choice.ts';
import { queryEmbedder } from '../../ranking/queryEmbedder.ts';
import { searchWorkspace } from '../../ranking/search.ts';
import { DEFAULT_RANK_VERSION, isRankVersion, RANK_VERSIONS, type RankVersion } from '../../ranking/weights.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { openExistingStore } from '../openStore.ts';
import { terminalLine } from '../terminalText.ts';
import { UsageError } from '../usage.ts';

const MAX_LIMIT = 100;

function rankVersionOf(value: string | undefined): RankVersion {
  if (value === undefined) return DEFAULT_RANK_VERSION;
  const full = value.startsWith('query-rank-') ? value : `query-rank-${value}`;
  if (!isRankVersion(full)) throw new UsageError(`--rank-version must be one of ${RANK_VERSIONS.map((v) => v.replace('query-rank-', '')).join(', ')}`);
  return full;
}

function limitOf(value: string | undefined): number {
  if (value === undefined) return 10;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}`);
  return limit;
}

export function locationText(location: Location): string {
  const range = location.start === location.end ? `${location.start}` : `${location.start}-${location.end}`;
  const unit = { lines: 'line', pages: 'page', blocks: 'paragraph' }[location.kind];
  return `${unit}${location.start === location.end ? '' : 's'} ${range}`;
}

function excerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

export function renderSearch(response: SearchResponse): string {
  const lines = [
    `${response.results.length} result${response.results.length === 1 ? '' : 's'} for "${terminalLine(response.query)}" (${response.rank_version})`,
    'Relevance is relative to this result set (the best result is 1.00), not comparable across queries.',
    'Similarity is the cosine between the query and the closest passage; it is reported apart and is not part of relevance.',
  ];
  for (const unavailable of response.unavailable_paths) lines.push(`Unavailable: ${unavailable.path}: ${terminalLine(unavailable.reason)}.`);
  if (response.weak_match) lines.push(WEAK_MATCH_NOTICE);
  response.results.forEach((result, index) => {
    const similarity = result.semantic_similarity === null ? 'no vectors yet' : result.semantic_similarity.toFixed(2);
    lines.push(
      '',
      `${index + 1}. ${terminalLine(result.title ?? result.path)}`,
      `   ${terminalLine(result.path)}${result.passage ? `, ${locationText(result.passage.location)}` : ''}`,
      ...(result.also ? [`   ${terminalLine(describeAlso(result.also))}`] : []),
      `   relevance ${result.query_relevance.toFixed(2)} (relative to this result set) · similarity ${similarity}`,
      ...result.why_matched.map((reason) => `   - ${terminalLine(reason)}`),
    );
    if (result.passage) lines.push(`   > ${excerpt(result.passage.text)}`);
  });
  if (response.results.length === 0) lines.push('', 'No item matched.');
  return lines.join('\n');
}

export const searchCommand: Command = {
  name: 'search',
  summary: 'search the indexed folder, with why each result matched',
  usage: `relata search "<query>" [--limit N] [--confirmed-only] [--rank-version v1|v2] [--data DIR] [--workspace NAME] [--json]
       [--embedding-model default|none|DIR]

${COMMON_USAGE}
  --limit N         results to return (default 10, at most ${MAX_LIMIT})
  --confirmed-only  expand only through relationships a person confirmed
  --rank-version V  v2 (default: ${DEFAULT_RANK_VERSION}) or v1 (the design's reciprocal-rank fusion), for comparison
  --embedding-model the model the folder was embedded with (default: RELATA_EMBEDDING_MODEL, else default); none searches by words only`,
  options: {
    ...COMMON_OPTIONS,
    limit: { type: 'string' },
    'confirmed-only': { type: 'boolean' },
    'rank-version': { type: 'string' },
    'embedding-model': { type: 'string' },
  },
  async run({ values, positionals, out }) {
    if (positionals.length === 0 || positionals.join(' ').trim() === '') throw new UsageError('search needs a query');
    const query = positionals.join(' ');
    const limit = limitOf(values.limit as string | undefined);
    const rankVersion = rankVersionOf(values['rank-version'] as string | undefined);
    const model = values['embedding-model'] as string | undefined;
    // On a cold start the query model is what a search waits for longest: it loads in its own
    // thread (started by the launcher, cli/launch.ts, or from here) while the store opens.
    const embedder = await queryEmbedder(model === undefined ? embeddingChoiceFromEnv() : parseEmbeddingChoice(model), { loadNow: true });
    try {
      const { store } = await openExistingStore(values, process.cwd(), 'read');
      try {
        const response = await searchWorkspace(store, embedder, query, {
          limit,
          rankVersion,
          confirmedOnly: values['confirmed-only'] === true,
        });
        out(values.json ? JSON.stringify(response, null, 2) : renderSearch(response));
        return 0;
      } finally {
        await store.close();
      }
    } finally {
      await embedder?.close();
    }
  },
};
