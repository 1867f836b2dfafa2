// `relata reprocess [<path>...|--all] [--score-version v1|v2]`: recompute relationships under the
// live scoring model, or under an earlier version a person asks for (to compare, or to go back).
// New weights never rescore anything by themselves (each relationship keeps the version that
// produced it); this is how a person asks for it. Proposals update in place, decisions stay,
// rejected pairs stay rejected. A job that fails is listed and the command exits 1 (failedJobs.ts).

import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { FailedJobs } from '../failedJobs.ts';
import { itemAtPath } from '../itemPath.ts';
import { openRecordedFolderIndex } from '../openStore.ts';
import { terminalProgress } from '../progressBar.ts';
import { terminalLine } from '../terminalText.ts';
import { UsageError } from '../usage.ts';
import { SCORE_VERSION, SCORE_VERSIONS, scoreVersion } from '../../scoring/index.ts';

export const reprocessCommand: Command = {
  name: 'reprocess',
  summary: 'recompute relationships under the current scoring model',
  usage: `relata reprocess (<path>... | --all) [--score-version V] [--embedding-model default|none|DIR] [--data DIR] [--workspace NAME] [--json]

  <path>...         items whose relationships to recompute
  --all             every item of the workspace
  --score-version   the scoring version to score with (${SCORE_VERSIONS.map((known) => known.version).join(', ')}); default: the live one, ${SCORE_VERSION}
  --embedding-model the model whose vectors give similarity (as given to relata index)
${COMMON_USAGE}`,
  options: { ...COMMON_OPTIONS, all: { type: 'boolean' }, 'score-version': { type: 'string' }, 'embedding-model': { type: 'string' } },
  async run({ values, positionals, out }) {
    if (Boolean(values.all) === positionals.length > 0) throw new UsageError('give either item paths or --all');
    const asked = values['score-version'] as string | undefined;
    const version = asked === undefined ? undefined : scoreVersion(asked);
    if (version === null) throw new UsageError(`--score-version ${asked}: no such scoring version (${SCORE_VERSIONS.map((known) => known.version).join(', ')})`);
    const { index, resolved: paths } = await openRecordedFolderIndex(
      values,
      process.cwd(),
      async (store, root) => (values.all ? null : Promise.all(positionals.map(async (given) => (await itemAtPath(store, root, given)).path))),
      version ? { scoreVersion: version } : undefined,
    );
    try {
      const progress = terminalProgress('reprocessing');
      const failed = new FailedJobs();
      const jobs = await index.reprocess(paths, { onProgress: (update) => progress.update(update), onJobFailed: failed.onJobFailed });
      progress.stop();
      await failed.resolvePaths(index.store);
      const relationships = (await index.store.listRelationships()).length;
      const summary = { reprocessed: paths ?? 'all', jobs, failed: failed.jobs.length, relationships, failed_jobs: failed.jobs };
      const what = paths ? paths.map(terminalLine).join(', ') : 'every item';
      const text = failed.jobs.length === 0
        ? `reprocessed ${what}: ${jobs} jobs; ${relationships} relationships`
        : [`reprocess of ${what} did not finish: ${failed.jobs.length} failed for good in ${jobs} job runs; ${relationships} relationships`, ...failed.lines()].join('\n');
      out(values.json ? JSON.stringify(summary, null, 2) : text);
      return failed.failRun ? 1 : 0;
    } finally {
      await index.close();
    }
  },
};
