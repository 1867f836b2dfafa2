// `relata ask "<question>"`: an answer generated strictly from what retrieval found, with the
// sources it may cite, the contradictions recorded between them, the relationships that brought a
// source in, and any passage that tried to instruct the model. Without a model it prints the
// retrieval and says how to configure one. A rejected model reply still exits 0 (the retrieval
// is the result); a model that cannot be reached or loaded, or times out, exits 1.

import { describeAlso } from '../../../../shared/alsoText.ts';
import { describeVoices } from '../../../../shared/voiceText.ts';
import type { AnswerResult } from '../../../../shared/types.ts';
import { relationshipSentence } from '../../../../shared/wording.ts';
import { answerFromRetrieval, DEFAULT_TIMEOUT_MS } from '../../answer/answer.ts';
import { HOW_TO_CONFIGURE } from '../../answer/choice.ts';
import { retrieveForAnswer } from '../../answer/retrieval.ts';
import { embeddingChoiceFromEnv, parseEmbeddingChoice } from '../../embed/choice.ts';
import { queryEmbedder } from '../../ranking/queryEmbedder.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { MODEL_OPTIONS, providerFromFlags } from '../modelFlags.ts';
import { openExistingStore } from '../openStore.ts';
import { terminalLine } from '../terminalText.ts';
import { UsageError } from '../usage.ts';
import { describeLocation } from '../../../../shared/locationWords.ts';

const EXCERPT = 160;

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= EXCERPT ? flat : `${flat.slice(0, EXCERPT - 1).trimEnd()}…`;
}

function answerSection(result: AnswerResult): string[] {
  if (result.sources.length === 0) return ['Nothing in this workspace matched the question, so no model was asked.'];
  if (result.model === null && result.model_note) return [`No answer was generated: ${terminalLine(result.model_note)}`];
  if (result.model === null) return ['No model is configured, so no answer was generated; below is what retrieval found.', HOW_TO_CONFIGURE];
  if (result.rejected_reason !== null) {
    return [`No answer: the reply of ${result.model} was rejected (${result.rejected_reason}).`, 'The sources and any recorded conflicts below do not depend on the model.'];
  }
  return [`Answer (${result.model}, generated only from the sources below):`, result.answer ?? ''];
}

function insufficiency(result: AnswerResult): string {
  if (result.sources.length === 0) return 'Nothing was retrieved, so the question cannot be answered from this workspace.';
  if (result.model === null) return 'No model answered: the sources are evidence to read, not an answer.';
  if (result.rejected_reason !== null) return 'No usable answer: the model\'s reply was rejected (reason above).';
  if (result.citations.length === 0) return 'The answer cites none of the sources, so nothing here supports it: treat it as unsupported.';
  return 'The model judged the sources insufficient for a complete answer.';
}

function uncertaintyLines(result: AnswerResult): string[] {
  const labelsOf = (itemId: string) =>
    result.sources
      .filter((source) => source.item_id === itemId || source.also?.some((member) => member.item_id === itemId))
      .map((source) => source.label);
  const name = (ref: { item_id: string; path: string }) => {
    const labels = labelsOf(ref.item_id);
    return labels.length > 0 ? `${labels.join('/')} (${terminalLine(ref.path)})` : terminalLine(ref.path);
  };
  const lines: string[] = [];
  for (const conflict of result.conflicts) {
    const sides = conflict.sides?.filter((side) => side.items.length > 0) ?? [];
    const between =
      sides.length > 1
        ? sides.map((side) => `${describeVoices(side, name)} (${terminalLine(side.value)})`).join(' and ')
        : conflict.items.map(name).join(' and ');
    lines.push(`- Conflict recorded between ${between}: ${terminalLine(conflict.detail)}`);
  }
  if (!result.sufficient) lines.push(`- ${insufficiency(result)}`);
  if (result.model !== null && result.model_note) lines.push(`- ${terminalLine(result.model_note)}`);
  if (result.invalid_citations > 0) {
    lines.push(`- ${result.invalid_citations} citation${result.invalid_citations === 1 ? '' : 's'} to sources that were not supplied ${result.invalid_citations === 1 ? 'was' : 'were'} dropped.`);
  }
  for (const relationship of result.inferred_relationships) {
    const standing = relationship.status === 'confirmed' ? `confirmed by ${relationship.decided_by ?? 'a person'}` : 'a proposal from analysis, not reviewed: not a fact';
    lines.push(
      `- Reached through an inferred relationship: ${relationshipSentence(relationship.type, name(relationship.from), name(relationship.to))}, ` +
        `strength ${relationship.score.toFixed(2)} (${relationship.score_version}), ${standing}.`,
    );
  }
  for (const warning of result.injection_warnings) {
    lines.push(`- ${warning.label} contains what looks like an instruction to the model (${warning.kind}; the model was told to ignore it): "${terminalLine(warning.text)}"`);
  }
  if (result.injection_warnings.length > 0) lines.push('- Detection is best-effort: a passage not flagged is not proven safe.');
  for (const unavailable of result.unavailable_paths) {
    lines.push(`- Retrieved without the ${unavailable.path.replace(/_/g, ' ')} search path: ${terminalLine(unavailable.reason)}.`);
  }
  return lines;
}

export function renderAnswer(result: AnswerResult): string {
  const cited = new Set(result.citations);
  const lines = [...answerSection(result), '', 'Sources used'];
  if (result.sources.length === 0) lines.push('  (none)');
  for (const source of result.sources) {
    lines.push(
      `  ${source.label}${cited.has(source.label) ? ' (cited)' : ''}  ${terminalLine(source.title ?? source.path)}`,
      `      ${terminalLine(source.path)}, ${terminalLine(describeLocation(source.location, source.path))}`,
      ...(source.also ? [`      ${terminalLine(describeAlso(source.also))}`] : []),
      `      > ${excerpt(source.passage)}`,
    );
  }
  const uncertainty = uncertaintyLines(result);
  if (uncertainty.length > 0) lines.push('', 'Uncertainty and conflicts', ...uncertainty);
  return lines.join('\n');
}

function timeoutOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  const timeout = Number(value);
  if (!Number.isInteger(timeout) || timeout < 1) throw new UsageError('--timeout-ms must be a positive whole number of milliseconds');
  return timeout;
}

export const askCommand: Command = {
  name: 'ask',
  summary: 'answer a question from the indexed folder, citing its sources',
  usage: `relata ask "<question>" [--model PATH | --endpoint URL [--endpoint-model NAME] [--allow-insecure-endpoint]] [--timeout-ms N]
       [--data DIR] [--workspace NAME] [--json] [--embedding-model default|none|DIR]

${COMMON_USAGE}
  --model PATH      a local GGUF model, run on the CPU (default: RELATA_LLM_MODEL)
  --endpoint URL    an OpenAI-compatible server, e.g. http://localhost:11434/v1 (default: RELATA_LLM_ENDPOINT)
  --endpoint-model NAME  the model name the server expects (default: RELATA_LLM_ENDPOINT_MODEL)
  --allow-insecure-endpoint  allow plain http:// to another machine (default: RELATA_LLM_ALLOW_INSECURE=1);
                    loopback needs no opt-in, and an API key (RELATA_LLM_API_KEY) is never sent that way
  --timeout-ms N    give up on the model after N ms (default ${DEFAULT_TIMEOUT_MS}); a timeout is an error
  --embedding-model the model the folder was embedded with (default: RELATA_EMBEDDING_MODEL, else default)
  Without a model, ask prints what retrieval found and how to configure one.`,
  options: {
    ...COMMON_OPTIONS,
    ...MODEL_OPTIONS,
    'timeout-ms': { type: 'string' },
    'embedding-model': { type: 'string' },
  },
  async run({ values, positionals, out, log }) {
    const question = positionals.join(' ').trim();
    if (question === '') throw new UsageError('ask needs a question');
    const timeoutMs = timeoutOf(values['timeout-ms'] as string | undefined);
    const provider = providerFromFlags(values, log);
    const embeddingModel = values['embedding-model'] as string | undefined;
    // Loading from now on, in its own thread, while the store opens (see search.ts).
    const embedder = await queryEmbedder(embeddingModel === undefined ? embeddingChoiceFromEnv() : parseEmbeddingChoice(embeddingModel), { loadNow: true });
    try {
      const { store } = await openExistingStore(values, process.cwd(), 'read');
      try {
        const retrieval = await retrieveForAnswer(store, embedder, question);
        const result = await answerFromRetrieval(question, retrieval, provider, { timeoutMs });
        out(values.json ? JSON.stringify(result, null, 2) : renderAnswer(result));
        return 0;
      } finally {
        await store.close();
      }
    } finally {
      await embedder?.close();
      await provider?.close();
    }
  },
};
