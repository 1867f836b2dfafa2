// "Answer from stored knowledge": label the retrieved passages, ask the model, judge its reply,
// and assemble the result. Retrieval comes in as input and everything that does not depend on the
// model (the sources, the contradictions recorded between them, the relationships that brought a
// source in, the injection warnings) goes into the result whatever the model does. Only a
// transport failure (the model could not be reached, loaded, or did not answer in time) is an
// error; a reply that is empty, malformed or unsupported is a rejected or downgraded answer.

import type { AnswerConflict, AnswerResult, AnswerSource, RelationshipView, SearchResponse } from '../../../shared/types.ts';
import { hiddenInstructionWarnings } from './hiddenInstructions.ts';
import { detectInjections } from './injection.ts';
import { buildPrompt } from './prompt.ts';
import { ModelUnavailable, ProviderError, type AnswerPrompt, type AnswerProvider, type ProviderOutput } from './provider.ts';
import { validateOutput, type ValidatedAnswer } from './validate.ts';

/** A CPU-only local model can take minutes for a long prompt; an endpoint that is down fails much sooner. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** A passage as retrieval hands it over: the source it becomes, before it is labelled S1, S2… */
export type RetrievedSource = Omit<AnswerSource, 'label'>;

export interface Retrieval {
  /** Best first; they become S1, S2… in this order. */
  sources: RetrievedSource[];
  /** Contradictions recorded between retrieved items (and their copies), each disagreement once. */
  conflicts: AnswerConflict[];
  /** Relationships through which expansion brought a source in. */
  inferredRelationships: RelationshipView[];
  /** Hidden sentences addressed to an AI assistant, by item id, for sources whose document hides some. */
  hiddenInstructions?: ReadonlyMap<string, readonly string[]>;
  /** Search paths that could not run for the question (none when absent). */
  unavailablePaths?: SearchResponse['unavailable_paths'];
}

export interface AnswerOptions {
  timeoutMs?: number;
  /** The ask was cancelled (the person closed the request): the model is told to stop. */
  signal?: AbortSignal;
}

/** Said after why no model answered: the retrieval is the result. */
export const PASSAGES_ONLY = 'Showing the matching passages only.';

function labelSources(sources: readonly RetrievedSource[]): AnswerSource[] {
  return sources.map((source, index) => ({
    label: `S${index + 1}`,
    item_id: source.item_id,
    title: source.title,
    path: source.path,
    location: source.location,
    passage: source.passage,
    ...(source.also ? { also: source.also } : {}),
  }));
}

async function generateWithin(provider: AnswerProvider, prompt: AnswerPrompt, timeoutMs: number, cancelled?: AbortSignal): Promise<ProviderOutput> {
  const controller = new AbortController();
  const cancel = () => controller.abort(cancelled?.reason);
  cancelled?.addEventListener('abort', cancel, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ProviderError(`${provider.name} did not answer within ${timeoutMs} ms (--timeout-ms to allow longer)`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([provider.generate(prompt, controller.signal), timedOut]);
  } catch (error) {
    if (error instanceof ProviderError || error instanceof ModelUnavailable) throw error;
    throw new ProviderError(`${provider.name} failed: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
    cancelled?.removeEventListener('abort', cancel);
  }
}

/**
 * With no provider (no model configured) or nothing retrieved, the model is not asked: the result
 * holds the retrieval and no answer. Throws ProviderError on a transport failure.
 */
export async function answerFromRetrieval(
  question: string,
  retrieval: Retrieval,
  provider: AnswerProvider | null,
  options: AnswerOptions = {},
): Promise<AnswerResult> {
  const sources = labelSources(retrieval.sources);
  const independent = {
    conflicts: retrieval.conflicts,
    inferred_relationships: retrieval.inferredRelationships,
    injection_warnings: [...detectInjections(sources), ...hiddenInstructionWarnings(sources, retrieval.hiddenInstructions ?? new Map())],
    unavailable_paths: retrieval.unavailablePaths ?? [],
  };
  let verdict: ValidatedAnswer = { answer: null, sufficient: false, citations: [], invalid_citations: 0, rejected_reason: null };
  let model: string | null = null;
  let note: string | undefined;
  if (provider !== null && sources.length > 0) {
    try {
      const output = await generateWithin(provider, buildPrompt(question, sources), options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.signal);
      verdict = validateOutput(output, sources.map((source) => source.label));
      model = (output.kind === 'text' ? output.model : undefined) ?? provider.name;
      note = output.kind === 'text' ? output.note : undefined;
    } catch (error) {
      if (!(error instanceof ModelUnavailable)) throw error;
      note = `${error.message} ${PASSAGES_ONLY}`;
    }
  }
  return {
    answer: verdict.answer,
    sufficient: verdict.sufficient,
    sources,
    citations: verdict.citations,
    invalid_citations: verdict.invalid_citations,
    ...independent,
    rejected_reason: verdict.rejected_reason,
    model,
    ...(note === undefined ? {} : { model_note: note }),
  };
}
