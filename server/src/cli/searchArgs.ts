// What `relata search` accepts and how its arguments are read: one reading for the command
// (commands/search.ts) and for the launcher that first asks a running language server
// (searchByServer.ts), so the two cannot search for different things.

import { embeddingChoiceFromEnv, parseEmbeddingChoice, type EmbeddingChoice } from '../embed/choice.ts';
import { DEFAULT_RANK_VERSION, isRankVersion, RANK_VERSIONS, type RankVersion } from '../ranking/weights.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type CommandValues, type OptionSpec } from './command.ts';
import { STALE_AFTER_DAYS, WEAK_RELEVANCE } from './searchText.ts';
import { UsageError } from './usage.ts';

const MAX_LIMIT = 100;

export const SEARCH_OPTIONS: OptionSpec = {
  ...COMMON_OPTIONS,
  limit: { type: 'string' },
  'confirmed-only': { type: 'boolean' },
  'rank-version': { type: 'string' },
  'embedding-model': { type: 'string' },
  'no-server': { type: 'boolean' },
  all: { type: 'boolean' },
};

export const SEARCH_USAGE = `relata search "<query>" [--limit N] [--all] [--confirmed-only] [--rank-version v1|v2] [--data DIR] [--workspace NAME] [--json]
       [--embedding-model default|none|DIR] [--no-server]

${COMMON_USAGE}
  --limit N         results to return (default 10, at most ${MAX_LIMIT})
  --all             list the weak matches too (relevance under ${WEAK_RELEVANCE}), which are otherwise counted in one line
  --confirmed-only  expand only through relationships a person confirmed
  --rank-version V  v2 (default: ${DEFAULT_RANK_VERSION}) or v1 (the design's reciprocal-rank fusion), for comparison
  --embedding-model the model the folder was embedded with (default: RELATA_EMBEDDING_MODEL, else default); none searches by words only
  --no-server       search in this process, even when a language server has the same store open

When the language server of VS Code (relata serve) has this very store open (the same store, folder, workspace
and embedding model), the search is asked of it over a socket only this user can reach (Linux and macOS), which
skips loading the model and the store; the output is the same. A server that does not answer within 2 s, or
whose socket is not private, is passed over and the search runs here.

A result's index date is said when it is ${STALE_AFTER_DAYS} days old or more (the file may have changed since); --json
holds every result and every reason.`;

export interface SearchArguments {
  query: string;
  limit: number;
  rankVersion: RankVersion;
  confirmedOnly: boolean;
  embedding: EmbeddingChoice;
}

export function searchArguments(values: CommandValues, positionals: readonly string[], env: NodeJS.ProcessEnv = process.env): SearchArguments {
  if (positionals.length === 0 || positionals.join(' ').trim() === '') throw new UsageError('search needs a query');
  const model = values['embedding-model'] as string | undefined;
  return {
    query: positionals.join(' '),
    limit: limitOf(values.limit as string | undefined),
    rankVersion: rankVersionOf(values['rank-version'] as string | undefined),
    confirmedOnly: values['confirmed-only'] === true,
    embedding: model === undefined ? embeddingChoiceFromEnv(env) : parseEmbeddingChoice(model),
  };
}

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
