// The optional model stage of extraction: after the rules, a configured language model reads the
// passages the rules left thin and proposes names and figures, which validate.ts checks against
// the passage. It runs only when asked (`relata index --extract-with-model`,
// `relata.extraction.useModel`): on a CPU a call takes seconds. Every reply is cached by
// (passage hash, model, prompt version), so an unchanged passage never costs a second call, and a
// failing model costs its passages' findings, never the item.

import { createHash } from 'node:crypto';
import { describeDuration } from '../../../../shared/duration.ts';
import type { AnswerProvider } from '../../answer/provider.ts';
import type { StoredClaim, StoredEntity, WorkspaceStore } from '../../store/contract.ts';
import { extractionPrompt, MODEL_EXTRACTION_VERSION } from './prompt.ts';
import { readModelFindings } from './validate.ts';

/** A passage as the stage hands it over, with what the rules found in it. */
export interface PassageInput {
  id: string;
  text: string;
}

type Found<T> = Omit<T, 'itemId'>;

/** Counts for the index summary: what was asked, what came back, and what validation threw out. */
export interface ModelExtractionTally {
  /** Thin passages read (from the model or the cache). */
  passages: number;
  /** Calls made to the model; 0 on a re-index of unchanged passages. */
  calls: number;
  /** Passages answered from the cache. */
  cached: number;
  /** Calls that failed (model unreachable, timed out): nothing from them, nothing cached. */
  failed: number;
  /** Replies that were not the requested JSON. */
  malformed: number;
  /** Names and figures kept, labelled producer `model`. */
  entities: number;
  claims: number;
  /** Proposals discarded by validation (not verbatim in the passage, unknown type, a figure that is not one). */
  discarded: number;
  /** Proposals dropped because a rule had found them already. */
  overlapping: number;
}

export interface ModelExtractionProgress {
  tally: ModelExtractionTally;
  /** Mean time of one model call so far (ms); null before the first. */
  meanCallMs: number | null;
  /** Thin passages of this item still to read, and items still queued for extraction. */
  passagesLeftInItem: number;
  itemsQueued: number;
  /** Remaining time at the mean call time, assuming queued items are as thin as the ones read so far (ms); null before the first call. */
  estimatedMsLeft: number | null;
}

export interface ModelExtractorOptions {
  onProgress?: (progress: ModelExtractionProgress) => void;
  log?: (line: string) => void;
  timeoutMs?: number;
}

/**
 * A thin passage is one holding a name-like run the rules did not explain: two or more
 * capitalised words in a row ("Larkspur Logistics", "Northgate Distribution Centre") that no
 * rule-found entity covers. Prose without such a run has nothing for the model to name, and a
 * passage whose every capitalised run the rules read is already covered.
 */
export function isThin(text: string, ruleSpans: readonly { start: number; end: number }[]): boolean {
  const run = /\p{Lu}[\p{L}'’&-]*(?:[^\S\n]+\p{Lu}[\p{L}'’&-]*)+/gu;
  for (let m = run.exec(text); m !== null; m = run.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (!ruleSpans.some((span) => span.start <= start && end <= span.end)) return true;
  }
  return false;
}

/** Per item, at most this many thin passages are read, spread over the item: a long contract costs minutes, not hours. */
export const MAX_MODEL_PASSAGES_PER_ITEM = 24;

const PER_CALL_TIMEOUT_MS = 120_000;

export function passageHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export class ModelExtractor {
  readonly tally: ModelExtractionTally = { passages: 0, calls: 0, cached: 0, failed: 0, malformed: 0, entities: 0, claims: 0, discarded: 0, overlapping: 0 };
  private callMs = 0;
  private itemsRead = 0;

  constructor(
    private readonly provider: AnswerProvider,
    private readonly options: ModelExtractorOptions = {},
  ) {}

  /** The model's id as recorded with its results and cache entries, e.g. "local:mistral-7b.Q4_K_M.gguf". */
  get modelId(): string {
    return this.provider.name;
  }

  /** Part of the item's extraction versions: a change of model or prompt re-extracts (the cache keeps what is unchanged free). */
  get version(): string {
    return `${MODEL_EXTRACTION_VERSION}(${this.modelId})`;
  }

  /**
   * The model's findings in the item's thin passages; never throws for what the model does.
   * `complete` is false when a call failed (unreachable, timed out): those passages were not read.
   */
  async extractItem(
    store: WorkspaceStore,
    itemId: string,
    passages: readonly PassageInput[],
    rules: { entities: readonly Found<StoredEntity>[]; claims: readonly Found<StoredClaim>[] },
  ): Promise<{ entities: Found<StoredEntity>[]; claims: Found<StoredClaim>[]; complete: boolean }> {
    // A product name is the rules' guess at a capitalised run (entities/names.ts), not a reading
    // of it: the run stays open to the model, which may say it is an organisation or a place.
    const read = rules.entities.filter((entity) => entity.type !== 'product');
    const thin = spread(
      passages.filter((passage) => isThin(passage.text, read.filter((entity) => entity.chunkId === passage.id))),
      MAX_MODEL_PASSAGES_PER_ITEM,
    );
    const hashes = thin.map((passage) => passageHash(passage.text));
    const cached = await store.cachedModelOutputs(hashes, this.modelId, MODEL_EXTRACTION_VERSION);
    const entities: Found<StoredEntity>[] = [];
    const claims: Found<StoredClaim>[] = [];
    let complete = true;
    for (const [index, passage] of thin.entries()) {
      const hash = hashes[index]!;
      let output: string | null | undefined = cached.get(hash);
      if (output === undefined) {
        output = await this.ask(passage.text);
        if (output !== null) {
          await store.cacheModelOutput({ passageHash: hash, modelId: this.modelId, promptVersion: MODEL_EXTRACTION_VERSION, output, itemId });
        }
        await this.report(store, thin.length - index - 1);
      } else {
        this.tally.cached += 1;
      }
      this.tally.passages += 1;
      if (output === null) {
        complete = false;
        continue;
      }
      const inPassage = <T extends { chunkId: string }>(found: readonly T[]) => found.filter((one) => one.chunkId === passage.id);
      const findings = readModelFindings(output, passage.text, { entities: inPassage(read), claims: inPassage(rules.claims) });
      if (findings.malformed) this.tally.malformed += 1;
      this.tally.discarded += findings.discarded;
      this.tally.overlapping += findings.overlapping;
      this.tally.entities += findings.entities.length;
      this.tally.claims += findings.claims.length;
      // Labelled with the model as well as the prompt: "model-extract@1(local:mistral-7b.Q4_K_M.gguf)".
      entities.push(...findings.entities.map((entity) => ({ ...entity, chunkId: passage.id, extractorVersion: this.version })));
      claims.push(...findings.claims.map((claim) => ({ ...claim, chunkId: passage.id, extractorVersion: this.version })));
    }
    this.itemsRead += 1;
    return { entities, claims, complete };
  }

  /**
   * The model's raw reply, to be validated (and cached) as it is; a malformed envelope is cached
   * as an empty reply, since asking again would give the same. Null when the call itself failed
   * (unreachable, timed out): nothing is cached, so a later run asks again.
   */
  private async ask(passage: string): Promise<string | null> {
    const started = performance.now();
    try {
      const output = await this.provider.generate(extractionPrompt(passage), AbortSignal.timeout(this.options.timeoutMs ?? PER_CALL_TIMEOUT_MS));
      return output.kind === 'text' ? output.text : '';
    } catch (error) {
      // The first failure is told as it happens; the rest are counted in the summary, not repeated.
      if (this.tally.failed === 0) this.options.log?.(`the model could not read a passage: ${(error as Error).message}`);
      this.tally.failed += 1;
      return null;
    } finally {
      this.tally.calls += 1;
      this.callMs += performance.now() - started;
    }
  }

  private async report(store: WorkspaceStore, passagesLeftInItem: number): Promise<void> {
    if (!this.options.onProgress) return;
    const itemsQueued = (await store.jobCounts()).filter((row) => row.stage === 'extract' && row.status === 'queued').reduce((n, row) => n + row.count, 0);
    const meanCallMs = this.tally.calls > 0 ? this.callMs / this.tally.calls : null;
    // Passages per item so far, counting this one as read: what queued items are assumed to need.
    const perItem = (this.tally.passages + 1 + passagesLeftInItem) / (this.itemsRead + 1);
    const estimatedMsLeft = meanCallMs === null ? null : meanCallMs * (passagesLeftInItem + itemsQueued * perItem);
    this.options.onProgress({ tally: { ...this.tally }, meanCallMs, passagesLeftInItem, itemsQueued, estimatedMsLeft });
  }
}

/** One progress line, as the CLI and the editor's log print it: calls, cache hits, time left. */
export function describeModelProgress(progress: ModelExtractionProgress): string {
  const { tally, estimatedMsLeft, itemsQueued } = progress;
  const left =
    estimatedMsLeft === null ? '' : `; about ${describeDuration(estimatedMsLeft)} left (${itemsQueued} file${itemsQueued === 1 ? '' : 's'} still queued)`;
  return `model extraction: ${tally.calls} call${tally.calls === 1 ? '' : 's'}, ${tally.cached} from the cache${left}`;
}


/**
 * Calls `report` with a progress update at most once per interval: a call takes seconds on a CPU,
 * and a person waiting wants the count and the time left, not a line per call.
 */
export function everyFewSeconds(report: (progress: ModelExtractionProgress) => void, intervalMs = 5_000): (progress: ModelExtractionProgress) => void {
  let lastAt = -Infinity;
  return (progress) => {
    const at = performance.now();
    if (at - lastAt < intervalMs) return;
    lastAt = at;
    report(progress);
  };
}

/** Up to `limit` passages spread evenly over the item, in order. */
function spread<T>(values: readonly T[], limit: number): T[] {
  if (values.length <= limit) return [...values];
  return Array.from({ length: limit }, (_, index) => values[Math.floor((index * values.length) / limit)]!);
}
