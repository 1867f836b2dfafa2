// `relata index <folder>`: run the pipeline over a folder to completion, or keep watching it.

import path from 'node:path';
import { stat } from 'node:fs/promises';
import { FolderIndex } from '../../engine/folderIndex.ts';
import { defaultWorkspace } from '../../engine/workspaceName.ts';
import { abandonRebuild, finishRebuild, reattachDecisions, startRebuild, type RebuildReport } from '../../engine/rebuild.ts';
import type { IndexReport } from '../../engine/report.ts';
import { parseEmbeddingChoice } from '../../embed/choice.ts';
import { defaultPipelineSettings, MEBIBYTE } from '../../pipeline/settings.ts';
import { FAILURE_FAILS_ITEM } from '../../pipeline/stages/index.ts';
import { describeLocation, type StoreLocation } from '../../store/location.ts';
import { dataDirOverlap } from '../../workspace/folderBoundary.ts';
import { watchFolder } from '../../workspace/watch.ts';
import { ModelRelationshipClassifier } from '../../discover/modelClassifier.ts';
import { describeModelProgress, everyFewSeconds, ModelExtractor, type ModelExtractionTally } from '../../extract/model/modelExtractor.ts';
import { MODEL_EXTRACTION_VERSION } from '../../extract/model/prompt.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command, type CommandInput } from '../command.ts';
import { FailedJobs } from '../failedJobs.ts';
import { MODEL_OPTIONS, requiredProvider } from '../modelFlags.ts';
import { locationForFolder, storeChoice } from '../storeFlags.ts';
import { terminalProgress } from '../progressBar.ts';
import { terminalLine } from '../terminalText.ts';
import { UsageError } from '../usage.ts';

export const indexCommand: Command = {
  name: 'index',
  summary: 'index a folder (ingest → parse → chunk → embed → extract → discover), then print a summary',
  usage: `relata index <folder> [--data DIR] [--workspace NAME] [--json] [--watch] [--exclude PATTERN]... [--max-file-mb N] [--no-ocr]
       [--embedding-model default|none|DIR] [--embedding-threads N]
       [--classify] [--extract-with-model] [--model PATH | --endpoint URL [--endpoint-model NAME]]
       [--forget-deleted] [--rebuild] [--ingest-only]

${COMMON_USAGE}
  --watch           keep running and index changes as they happen (Ctrl+C to stop)
  --exclude PATTERN skip paths matching a gitignore-style pattern (repeatable)
  --max-file-mb N   skip files larger than N MB (default 50)
  --no-ocr          do not read images and scanned PDF pages by OCR (default: on, up to 50 pages per
                    PDF; RELATA_OCR=0 also turns it off); such files then fail, saying so
  --embedding-model default (offline Universal Sentence Encoder lite), none (lexical search only),
                    or a local ONNX sentence-transformer folder (default: RELATA_EMBEDDING_MODEL, else default)
  --embedding-threads N  worker threads that embed (default: one per core)
  --classify        ask a language model for its opinion on candidate relationships (one weak signal,
                    weight 0.15); uses --model / --endpoint, else RELATA_LLM_MODEL / RELATA_LLM_ENDPOINT.
                    Slow on a CPU: one model call per candidate pair at or above the minimum score
  --extract-with-model  after the rules, ask the language model for the organisations, people, places,
                    products and figures in passages the rules left thin; each is kept only if it is
                    written in the passage, and labelled as named by the model. Slow on a CPU: one call
                    per thin passage (at most 24 per file), shown with an estimate of the time left;
                    replies are cached, so re-indexing unchanged files calls the model zero times
  --forget-deleted  forget each deleted file's text and bytes as soon as it is tombstoned, as
                    \`relata forget\` does (default: RELATA_FORGET_DELETED=1, else off)
  --rebuild         build the store afresh from the folder (after damage: see \`relata check\`): the old
                    store is built beside the old one and replaces it only when complete, so an interrupted
                    rebuild leaves the old store in use; the old file is kept, renamed
                    relata.sqlite.before-rebuild-<time>; relationship and alias decisions and their history
                    are carried over, re-attached by the items' paths (SQLite only)
  --ingest-only     record the files' bytes and queue their parsing, then stop: \`relata worker\` processes,
                    on this machine or any other that reaches the store, run the rest`,
  options: {
    ...COMMON_OPTIONS,
    watch: { type: 'boolean' },
    exclude: { type: 'string', multiple: true },
    'max-file-mb': { type: 'string' },
    'max-pdf-pages': { type: 'string' },
    'no-ocr': { type: 'boolean' },
    'embedding-model': { type: 'string' },
    'embedding-threads': { type: 'string' },
    classify: { type: 'boolean' },
    'extract-with-model': { type: 'boolean' },
    'forget-deleted': { type: 'boolean' },
    rebuild: { type: 'boolean' },
    'ingest-only': { type: 'boolean' },
    ...MODEL_OPTIONS,
  },
  async run({ values, positionals, log, out }: CommandInput) {
    if (positionals.length !== 1) throw new UsageError('index needs exactly one folder');
    const folder = path.resolve(positionals[0]!);
    const info = await stat(folder).catch(() => null);
    if (!info?.isDirectory()) throw new UsageError(`not a folder: ${folder}`);
    const location = locationForFolder(storeChoice(values), folder);
    if (location.backend === 'sqlite') {
      const overlap = dataDirOverlap(folder, location.dataDir);
      if (overlap) throw new UsageError(overlap);
    } else if (values.rebuild) {
      throw new UsageError('--rebuild sets a damaged SQLite file aside: it does not apply to a MongoDB + Qdrant store');
    }
    const ingestOnly = values['ingest-only'] === true;
    const extractWithModel = values['extract-with-model'] === true;
    if (ingestOnly && (values.watch || values.rebuild || values.classify || extractWithModel)) {
      throw new UsageError('--ingest-only leaves processing to workers: it does not go with --watch, --rebuild, --classify or --extract-with-model');
    }
    const maxFileMb = values['max-file-mb'] === undefined ? 50 : Number(values['max-file-mb']);
    if (!Number.isFinite(maxFileMb) || maxFileMb <= 0) throw new UsageError('--max-file-mb must be a positive number');
    const maxPdfPages = values['max-pdf-pages'] === undefined ? undefined : Number(values['max-pdf-pages']);
    if (maxPdfPages !== undefined && !(Number.isInteger(maxPdfPages) && maxPdfPages > 0)) {
      throw new UsageError('--max-pdf-pages must be a positive whole number');
    }

    const threads = values['embedding-threads'] === undefined ? undefined : Number(values['embedding-threads']);
    if (threads !== undefined && !(Number.isInteger(threads) && threads > 0)) {
      throw new UsageError('--embedding-threads must be a positive whole number');
    }
    const embedding =
      values['embedding-model'] === undefined && threads === undefined
        ? undefined
        : parseEmbeddingChoice((values['embedding-model'] as string | undefined) ?? process.env.RELATA_EMBEDDING_MODEL, threads);
    // --classify and --extract-with-model share one model.
    const provider = values.classify || extractWithModel ? requiredProvider(values, values.classify ? '--classify' : '--extract-with-model', log) : null;
    // On a terminal the model stage's count and time left ride on the progress bar; otherwise they are lines.
    const progress = terminalProgress('indexing');
    const modelExtractor =
      provider && extractWithModel
        ? new ModelExtractor(provider, {
            log,
            onProgress: everyFewSeconds((update) => {
              const line = describeModelProgress(update);
              if (!progress.note(line)) log(line);
            }),
          })
        : null;
    // A rebuild indexes into a new store beside the live one, which it replaces only once complete.
    const rebuild =
      values.rebuild && location.backend === 'sqlite'
        ? startRebuild(location.dataDir, (values.workspace as string | undefined) ?? defaultWorkspace())
        : null;
    for (const line of rebuild?.settled ?? []) log(`relata: ${terminalLine(line)}`);
    const openIndex = (at: StoreLocation) =>
      FolderIndex.open({
        embedding,
        classifier: provider && values.classify ? new ModelRelationshipClassifier(provider, log) : null,
        modelExtractor,
        folder,
        location: at,
        workspace: values.workspace as string | undefined,
        settings: {
          exclude: (values.exclude as string[] | undefined) ?? [],
          maxFileBytes: maxFileMb * MEBIBYTE,
          ...(maxPdfPages === undefined && !values['no-ocr']
            ? {}
            : {
                parserLimits: {
                  ...defaultPipelineSettings().parserLimits,
                  ...(maxPdfPages === undefined ? {} : { maxPages: maxPdfPages }),
                  ...(values['no-ocr'] ? { ocr: false } : {}),
                },
              }),
          ...(values['forget-deleted'] ? { forgetDeleted: true } : {}),
        },
      });
    let index: FolderIndex | null = null;
    let partial = rebuild;
    try {
      index = await openIndex(rebuild?.location ?? location);
      const failed = new FailedJobs();
      const runStarted = Date.now();
      const report = await index.index({ onProgress: (update) => progress.update(update), onJobFailed: failed.onJobFailed, ingestOnly });
      progress.stop();
      await failed.resolvePaths(index.store);
      const queued = ingestOnly ? await index.store.pendingJobs() : null;
      // Where the store is, for the summary: a rebuild's new store is in the same data directory.
      const shownLocation = index.location;
      let rebuilt: RebuildReport | null = null;
      if (rebuild) {
        rebuilt = await reattachDecisions(index.store, rebuild);
        // The new store is closed (its log folded in) before it takes the live one's name.
        await index.close();
        index = null;
        partial = null;
        rebuilt.kept_as = finishRebuild(rebuild);
        if (values.watch) index = await openIndex(location);
      }
      const modelExtraction = modelExtractor && { model: modelExtractor.modelId, prompt_version: MODEL_EXTRACTION_VERSION, ...modelExtractor.tally };
      if (values.json) {
        out(
          JSON.stringify(
            {
              ...report,
              failed_jobs: failed.jobs,
              ...(modelExtraction ? { model_extraction: modelExtraction } : {}),
              ...(rebuilt ? { rebuild: rebuilt } : {}),
              ...(queued === null ? {} : { queued_for_workers: queued }),
            },
            null,
            2,
          ),
        );
      } else if (queued !== null) {
        out([formatIngested(report, shownLocation, queued), ...failed.lines()].join('\n'));
      } else {
        // Every failed file is in the report already; the other failures are listed once after it.
        const failedFiles = new Set(report.files.filter((file) => file.status === 'failed').map((file) => file.path));
        const unlisted = failed.lines((job) => FAILURE_FAILS_ITEM[job.stage] && failedFiles.has(job.subject));
        out(
          [
            formatReport(report, shownLocation),
            ...(modelExtractor ? [formatModelExtraction(modelExtractor.modelId, modelExtractor.tally)] : []),
            ...unlisted,
            ...(rebuilt ? [formatRebuild(rebuilt)] : []),
          ].join('\n'),
        );
      }
      if (!values.watch || !index) return failed.failRun ? 1 : 0;

      const watch = watchFolder(index, {
        // What changed during the run, or while the watcher starts, is queued once it is ready.
        changedSince: runStarted,
        onBatch: (paths) => log(`changed: ${paths.map(terminalLine).join(', ')}`),
        onRetry: (retry) => log(`${terminalLine(retry.message)} (${retry.paths.length} change${retry.paths.length === 1 ? '' : 's'} kept)`),
        onError: (error) => log(`watch error: ${terminalLine(error.message)}`),
      });
      const stopped = new Promise<'stopped'>((resolve) => {
        process.once('SIGINT', () => resolve('stopped'));
        process.once('SIGTERM', () => resolve('stopped'));
      });
      log(`starting to watch ${folder}…`);
      if ((await Promise.race([watch.ready(), stopped])) !== 'stopped') {
        log(`watching ${folder} for changes (Ctrl+C to stop)`);
        await stopped;
      }
      await watch.close();
      return 0;
    } finally {
      await index?.close();
      if (partial) abandonRebuild(partial);
      await provider?.close();
    }
  },
};

const duplicatesText = (count: number) => `${count} duplicate${count === 1 ? '' : 's'}`;

function formatReport(report: IndexReport, location: StoreLocation): string {
  const gone = report.files.filter((file) => file.status === 'gone').length;
  const lines = [
    `workspace ${report.workspace}, store ${terminalLine(describeLocation(location))}`,
    `${report.items.indexed} indexed, ${report.items.failed} failed, ${report.items.skipped} skipped, ` +
      `${duplicatesText(report.items.duplicates)}${gone ? `, ${gone} gone` : ''}; ` +
      `${report.chunks} chunks in ${(report.elapsed_ms / 1000).toFixed(1)} s`,
  ];
  const notable = report.files.filter((file) => file.status !== 'indexed' || file.flags.length > 0);
  for (const file of notable) {
    const flags = file.flags.length ? ` [${file.flags.join(', ')}]` : '';
    lines.push(`  ${file.status.padEnd(9)} ${terminalLine(file.path)}${flags}${file.reason ? `: ${terminalLine(file.reason)}` : ''}`);
  }
  return lines.join('\n');
}

/** After --ingest-only: what was recorded, and that the rest waits for workers (every file is pending until then). */
function formatIngested(report: IndexReport, location: StoreLocation, queued: number): string {
  const count = (status: string) => report.files.filter((file) => file.status === status).length;
  const lines = [
    `workspace ${report.workspace}, store ${terminalLine(describeLocation(location))}`,
    `ingested: ${count('pending')} file(s) waiting for workers, ${report.items.indexed} already indexed, ${report.items.failed} failed, ` +
      `${report.items.skipped} skipped, ${duplicatesText(report.items.duplicates)}; ${queued} job(s) queued: run \`relata worker\` with this store`,
  ];
  for (const file of report.files.filter((file) => file.status === 'failed' || file.status === 'skipped')) {
    lines.push(`  ${file.status.padEnd(9)} ${terminalLine(file.path)}${file.reason ? `: ${terminalLine(file.reason)}` : ''}`);
  }
  return lines.join('\n');
}

function formatRebuild(rebuilt: RebuildReport): string {
  const { reattached, recorded, returned_to_review: returned } = rebuilt.relationships;
  const lines = [
    `rebuilt: ${reattached + recorded} relationship(s) with decisions or history carried over (${reattached} re-proposed by discovery, ` +
      `${recorded} recorded for their pair${returned ? `; ${returned} confirmation(s) back in review because their evidence changed` : ''}), ` +
      `${rebuilt.aliases} alias decision(s)`,
    ...(rebuilt.kept_as ? [`  the old store is kept as ${terminalLine(rebuilt.kept_as)}`] : []),
    ...rebuilt.lost.map((what) => `  not carried over: ${terminalLine(what)}`),
    ...(rebuilt.other_workspaces.length
      ? [`  other workspaces in the old store, not rebuilt: ${rebuilt.other_workspaces.map(terminalLine).join(', ')} (their decisions stay in the kept file)`]
      : []),
  ];
  return lines.join('\n');
}

/** What the model stage did, for the summary: calls, cache hits, and what validation threw out. */
export function formatModelExtraction(model: string, tally: ModelExtractionTally): string {
  const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
  const refused = [
    tally.discarded > 0 ? `${tally.discarded} discarded (not written in the passage, or not a name or figure)` : '',
    tally.overlapping > 0 ? `${tally.overlapping} a rule had found already` : '',
    tally.malformed > 0 ? `${plural(tally.malformed, 'reply', 'replies')} not the requested JSON` : '',
    tally.failed > 0 ? `${plural(tally.failed, 'call')} failed` : '',
  ].filter(Boolean);
  return (
    `model extraction (${terminalLine(model)}, ${MODEL_EXTRACTION_VERSION}): ${plural(tally.passages, 'thin passage')} read, ` +
    `${plural(tally.calls, 'model call')}, ${tally.cached} from the cache; kept ${plural(tally.entities, 'name')} and ` +
    `${plural(tally.claims, 'figure')}, labelled as named by the model` +
    (refused.length > 0 ? `; ${refused.join(', ')}` : '')
  );
}
