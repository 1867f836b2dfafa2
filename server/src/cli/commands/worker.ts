// `relata worker`: runs the parse, chunk, embed, extract and discover jobs of a store's shared
// queue (engine/queueWorker.ts), on any machine that reaches the store, while `relata index`
// ingests where the files are. Progress and failures go to stderr as lines (a worker is a
// service, usually logged, not watched); the totals go to stdout when it stops.

import type { PipelineStage } from '../../../../shared/types.ts';
import { parseEmbeddingChoice } from '../../embed/choice.ts';
import { QueueWorker, WORKER_STAGES, type WorkerTotals } from '../../engine/queueWorker.ts';
import { describeLocation } from '../../store/location.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { existingLocation } from '../openStore.ts';
import { terminalLine } from '../terminalText.ts';
import { EXIT_FAILURE, UsageError } from '../usage.ts';
import { describeModelProgress, everyFewSeconds, ModelExtractor } from '../../extract/model/modelExtractor.ts';
import { MODEL_OPTIONS, requiredProvider } from '../modelFlags.ts';

/** While jobs run, the totals are said at most this often. */
const PROGRESS_EVERY_MS = 5_000;

export const workerCommand: Command = {
  name: 'worker',
  summary: 'run parse, chunk, embed, extract and discover jobs from a shared store (ingest stays with index)',
  usage: `relata worker [--store URI --qdrant URL [--folder F] | --data DIR] [--workspace NAME] [--until-idle]
       [--embedding-model default|none|DIR] [--embedding-threads N] [--json]
       [--extract-with-model --model PATH | --endpoint URL [--endpoint-model NAME]]

  Runs the jobs that \`relata index --ingest-only\` (or any indexer) leaves in the store: parse, chunk, embed,
  extract and discover. They read the stored bytes, never the folder, so a worker may run on any machine that
  reaches the store, and several may share it. Ingest stays with \`relata index\`, where the files are.
  Ctrl+C (or SIGTERM) finishes the running jobs and stops; a second one hands them back at once. A worker that
  dies has its jobs handed back when their lease expires (RELATA_LEASE_MS, default 60 s).
  --until-idle      stop once no job of these stages is queued or running, instead of waiting for more
  --embedding-model the model to embed with (default: RELATA_EMBEDDING_MODEL, else default); give every
                    worker and \`relata search\` the same one
  --embedding-threads N  threads that embed (default: one per core)
  --extract-with-model  run the model stage of extraction, as \`relata index --extract-with-model\` does, with
                    --model / --endpoint (else RELATA_LLM_MODEL / RELATA_LLM_ENDPOINT); give every worker and the
                    indexer the same choice, or each extracts again what the other extracted otherwise
${COMMON_USAGE}`,
  options: {
    ...COMMON_OPTIONS,
    'until-idle': { type: 'boolean' },
    'embedding-model': { type: 'string' },
    'embedding-threads': { type: 'string' },
    'extract-with-model': { type: 'boolean' },
    ...MODEL_OPTIONS,
  },
  async run({ values, positionals, log, out }) {
    if (positionals.length > 0) throw new UsageError('worker takes no positional arguments: name the store with --store or --data, the folder with --folder');
    const threads = values['embedding-threads'] === undefined ? undefined : Number(values['embedding-threads']);
    if (threads !== undefined && !(Number.isInteger(threads) && threads > 0)) throw new UsageError('--embedding-threads must be a positive whole number');
    const model = (values['embedding-model'] as string | undefined) ?? process.env.RELATA_EMBEDDING_MODEL;
    const location = existingLocation(values, process.cwd());
    const provider = values['extract-with-model'] === true ? requiredProvider(values, '--extract-with-model', log) : null;
    const worker = await QueueWorker.open({
      location,
      workspace: values.workspace as string | undefined,
      embedding: model === undefined && threads === undefined ? undefined : parseEmbeddingChoice(model, threads),
      modelExtractor: provider ? new ModelExtractor(provider, { log, onProgress: everyFewSeconds((update) => log(describeModelProgress(update))) }) : null,
    }).catch(async (error: unknown) => {
      await provider?.close();
      throw error;
    });
    const stopping = new AbortController();
    const onSignal = () => {
      if (!stopping.signal.aborted) {
        log('stopping: finishing the running jobs (signal again to hand them back now)');
        stopping.abort();
        return;
      }
      void worker.handBack().then(
        (released) => {
          log(`handed back ${released} job(s) to the queue`);
          process.exit(EXIT_FAILURE);
        },
        () => process.exit(EXIT_FAILURE),
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      const progress = new ProgressLines(worker.totals, log);
      const pending = new Set<Promise<void>>();
      const running = worker.run({
        untilIdle: values['until-idle'] === true,
        signal: stopping.signal,
        onEvent: (event) => {
          if (event.type === 'job-failed') {
            // Jobs after ingest name their item by id: the line says its path.
            const said = pathOf(worker, event.job.stage, event.job.subject).then((subject) =>
              log(`${event.gaveUp ? 'failed' : 'failed, will retry'}: ${event.job.stage} ${terminalLine(subject)}: ${terminalLine(event.error)}`),
            );
            pending.add(said);
            void said.finally(() => pending.delete(said));
          }
          if (event.type !== 'job-started') progress.maybe();
        },
        onIdle: () => {
          progress.say();
          if (values['until-idle'] !== true) log('queue empty: waiting for jobs (Ctrl+C to stop)');
        },
        onRetry: (message) => log(message),
      });
      log(
        `worker ${worker.owner}: ${describeLocation(location)}, workspace ${worker.store.workspace}, folder ${terminalLine(worker.root)}; ` +
          `running ${WORKER_STAGES.join(', ')} jobs`,
      );
      const totals = await running;
      await Promise.all(pending);
      progress.say();
      const summary = { workspace: worker.store.workspace, store: describeLocation(location), owner: worker.owner, done: totals.done, failed: totals.failed, gave_up: totals.gaveUp };
      out(values.json ? JSON.stringify(summary, null, 2) : `worker stopped: ${totalsText(totals)}`);
      return 0;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await worker.close();
      await provider?.close();
    }
  },
};

async function pathOf(worker: QueueWorker, stage: PipelineStage, subject: string): Promise<string> {
  if (stage === 'ingest') return subject;
  const item = await worker.store.getItem(subject).catch(() => null);
  return item?.path ?? subject;
}

function totalsText(totals: WorkerTotals): string {
  const done = Object.entries(totals.done).map(([stage, count]) => `${count} ${stage}`).join(', ');
  return `done ${done}; ${totals.failed} failed attempt(s), ${totals.gaveUp} given up`;
}

/** The totals on stderr: when the worker falls idle or stops, and every few seconds while it works. */
class ProgressLines {
  private lastSaid = Date.now();
  private saidText = '';

  constructor(
    private readonly totals: WorkerTotals,
    private readonly log: (line: string) => void,
  ) {}

  maybe(): void {
    if (Date.now() - this.lastSaid >= PROGRESS_EVERY_MS) this.say();
  }

  say(): void {
    this.lastSaid = Date.now();
    const text = totalsText(this.totals);
    if (text === this.saidText) return;
    this.saidText = text;
    this.log(text);
  }
}
