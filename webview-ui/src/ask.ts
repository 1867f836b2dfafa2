// The Ask panel: a question, then the answer from stored knowledge with "Sources used" (each
// with its path, opening its file at the passage; one for each group of near-duplicates, naming
// the others; the passage quoted around its sentences that hold the question's words or figures,
// highlighted: passageView.ts) and "Uncertainty and conflicts" (each disagreement once, with the
// sources on each side). When the model's output was rejected, the retrieval and the reason are
// still shown; when the chosen model did not answer (model_note: no model in the editor, consent
// refused, a quota) it says why above the sources; with no model configured, how to configure one. In a multi-root window
// the person asks every folder or one, and each answer says which folder it is from. The
// conversation is the extension's (askConversation.ts): the page redraws it when it loads.

import { describeAlso } from '../../shared/alsoText.ts';
import { describeLocation } from '../../shared/locationWords.ts';
import type { AskResult } from '../../shared/protocol.ts';
import type { AskFolder, AskTurn } from '../../shared/webviewMessages.ts';
import { action, h, render } from './dom.ts';
import { onHostMessage, send } from './host.ts';
import { passageView } from '../../shared/passageView.ts';
import { describeVoices } from '../../shared/voiceText.ts';
import { relationshipSentence } from '../../shared/wording.ts';
import { flaggedSources, INJECTION_CAVEAT, INJECTION_MARK, injectionDetail, injectionHeadline } from '../../shared/injectionText.ts';

let turns: AskTurn[] = [];
let folders: AskFolder[] = [];
let pending: { question: string; folders: AskFolder[] } | null = null;
let failure: string | null = null;

const ALL_FOLDERS = '';

/** A passage as quoted: the sentences that answer highlighted, the question's words and figures marked, the rest left out. */
function quotedPassage(text: string, question: string): HTMLElement {
  return h(
    'blockquote',
    { class: 'passage' },
    ...passageView(text, question).flatMap((part) => {
      if (part.kind === 'gap') return [h('span', { class: 'gap muted' }, ' … ')];
      if (!part.highlighted) return [h('span', {}, `${part.text} `)];
      const pieces: (HTMLElement | string)[] = [];
      let at = 0;
      for (const mark of part.marks) {
        pieces.push(part.text.slice(at, mark.start), h('strong', {}, part.text.slice(mark.start, mark.end)));
        at = mark.end;
      }
      pieces.push(part.text.slice(at));
      return [h('mark', { class: 'hit' }, ...pieces), ' '];
    }),
  );
}

function sources(folder: string, result: AskResult['result'], question: string): HTMLElement {
  const flagged = flaggedSources(result.injection_warnings);
  return h(
    'section',
    {},
    // With no answer written the passages are what was found, not sources an answer used.
    h('h3', {}, result.model === null ? 'Matching passages' : 'Sources used'),
    result.sources.length === 0
      ? h('p', { class: 'muted' }, 'No passage was retrieved for this question.')
      : h(
          'ol',
          { class: 'sources' },
          ...result.sources.map((source) =>
            h(
              'li',
              {},
              h('strong', {}, `[${source.label}] `),
              ...(result.citations.includes(source.label) ? [h('span', { class: 'muted' }, '(cited) ')] : []),
              ...(flagged.has(source.label) ? [h('span', { class: 'injection-mark', title: INJECTION_CAVEAT }, `⚠ ${INJECTION_MARK} `)] : []),
              action(source.title ?? source.path, () => send({ kind: 'open', folder, path: source.path, location: source.location })),
              h('div', { class: 'source-path' }, `${source.path} · ${describeLocation(source.location, source.path)}`),
              ...(source.also && source.also.length > 0 ? [h('div', { class: 'muted' }, describeAlso(source.also))] : []),
              quotedPassage(source.passage, question),
            ),
          ),
        ),
  );
}

function uncertainty(folder: string, result: AskResult['result']): HTMLElement | null {
  const notes: HTMLElement[] = [];
  // Sufficiency is the model's judgement: with no model, nobody judged it (the model note says why).
  if (!result.sufficient && result.model !== null) notes.push(h('li', {}, 'The retrieved passages are not enough to answer fully.'));
  for (const conflict of result.conflicts) {
    notes.push(
      h(
        'li',
        {},
        conflict.detail,
        ...(conflict.sides ?? [])
          .filter((side) => side.value !== '')
          .map((side) => h('div', { class: 'muted' }, `${side.value}: ${describeVoices(side)}`)),
        ' ',
        action('See the relationship', () => send({ kind: 'openRelationship', folder, id: conflict.relationship_id })),
      ),
    );
  }
  for (const relationship of result.inferred_relationships) {
    notes.push(
      h(
        'li',
        {},
        `A source was brought in through a relationship suggested by analysis, not yet reviewed: ${relationshipSentence(relationship.type, relationship.from.title ?? relationship.from.path, relationship.to.title ?? relationship.to.path)} (strength ${relationship.score.toFixed(2)}). `,
        action('Review it', () => send({ kind: 'openRelationship', folder, id: relationship.id })),
      ),
    );
  }
  if (result.invalid_citations > 0) notes.push(h('li', {}, `${result.invalid_citations} citation(s) in the model's output named no supplied source and were dropped.`));
  for (const unavailable of result.unavailable_paths ?? []) {
    notes.push(h('li', {}, `Retrieved without the ${unavailable.path.replace(/_/g, ' ')} search path: ${unavailable.reason}.`));
  }
  if (notes.length === 0) return null;
  return h('section', {}, h('h3', {}, 'Uncertainty and conflicts'), h('ul', {}, ...notes));
}

/** Above the answer: a source that tries to instruct the model is the first thing read. */
function injectionWarning(result: AskResult['result']): HTMLElement | null {
  const headline = injectionHeadline(result.injection_warnings);
  if (!headline) return null;
  return h(
    'div',
    { class: 'notice injection-warning', role: 'alert' },
    h('strong', {}, headline),
    h('ul', {}, ...result.injection_warnings.map((warning) => h('li', {}, `${injectionDetail(warning)} `, h('q', {}, warning.text)))),
    h('p', { class: 'muted' }, INJECTION_CAVEAT),
  );
}

function answerBlock({ folder, result }: AskResult, question: string): HTMLElement {
  const body: HTMLElement[] = [];
  const warning = injectionWarning(result);
  if (warning) body.push(warning);
  if (result.answer !== null) body.push(h('p', { class: 'answer' }, result.answer));
  // Why the chosen model did not answer (no model in the editor, consent refused, a quota…), or which answered instead.
  if (result.model_note) {
    body.push(h('p', { class: 'notice model-note' }, result.model_note));
  } else if (result.answer === null && result.model === null) {
    body.push(
      h(
        'p',
        { class: 'notice' },
        'No language model is configured, so Relata shows what it retrieved instead of an answer. ' +
          'To get answers, use the editor\'s language model (e.g. GitHub Copilot\'s, with "relata.answers.provider" set to "auto" or "editor"), ' +
          'or set "relata.answers.llmModelPath" to a local GGUF model file, or "relata.answers.llmEndpoint" to an OpenAI-compatible endpoint, in the settings.',
      ),
    );
  }
  if (result.rejected_reason) {
    body.push(h('p', { class: 'notice' }, `The model's output was rejected: ${result.rejected_reason}. The retrieval below is unaffected.`));
  }
  if (result.model) body.push(h('p', { class: 'muted' }, `Model: ${result.model}`));
  return h('div', { class: 'turn-answer' }, ...body, sources(folder, result, question), uncertainty(folder, result));
}

const askedText = (asked: AskFolder[]) => (folders.length > 1 ? `Asked ${asked.length === folders.length ? 'all folders' : 'one folder'}: ${asked.map((folder) => folder.name).join(', ')}` : null);

function turnBlock(turn: AskTurn): HTMLElement {
  const several = turn.answers.length > 1;
  const asked = askedText(turn.answers.map((answer) => answer.folder));
  return h(
    'div',
    { class: 'turn' },
    h('div', { class: 'turn-question' }, h('strong', {}, 'You: '), turn.question, asked ? h('div', { class: 'muted asked' }, asked) : null),
    ...turn.answers.map((answer) =>
      h(
        'div',
        { class: 'folder-answer' },
        several || folders.length > 1 ? h('h2', {}, `From ${answer.folder.name}`) : null,
        answer.answer ? answerBlock(answer.answer, turn.question) : h('p', { class: 'error' }, answer.error ?? 'no answer'),
      ),
    ),
  );
}

const folderChoice = h('select', { 'aria-label': 'Folders to ask' });
function drawFolderChoice(): void {
  const chosen = folderChoice.value;
  folderChoice.replaceChildren(
    h('option', { value: ALL_FOLDERS }, `All folders (${folders.length})`),
    ...folders.map((folder) => h('option', { value: folder.uri }, folder.name)),
  );
  folderChoice.value = folders.some((folder) => folder.uri === chosen) ? chosen : ALL_FOLDERS;
}

const input = h('textarea', { rows: '2', placeholder: 'Ask a question about this folder’s documents', 'aria-label': 'Question' });
const ask = () => {
  const question = input.value.trim();
  if (!question) return;
  input.value = '';
  send({ kind: 'ask', question, ...(folders.length > 1 && folderChoice.value !== ALL_FOLDERS ? { folder: folderChoice.value } : {}) });
};
input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    ask();
  }
});

/** Draws the page; `scrollTo` brings the newest turn's top into view (the composer stays pinned below). */
function draw(scrollTo: 'newest' | null = null): void {
  const blocks = turns.map(turnBlock);
  const waiting = pending
    ? h(
        'div',
        { class: 'turn' },
        h('div', { class: 'turn-question' }, h('strong', {}, 'You: '), pending.question, ...[askedText(pending.folders)].filter(Boolean).map((text) => h('div', { class: 'muted asked' }, text!))),
        h('p', { class: 'muted' }, 'Retrieving and answering…'),
      )
    : null;
  render(
    h('h1', {}, 'Ask Relata'),
    h('p', { class: 'muted' }, 'Answers come only from the retrieved passages, with their sources. Treat them as summaries of sources, not as authority.'),
    h('div', { class: 'conversation' }, ...blocks, waiting, failure ? h('p', { class: 'error' }, failure) : null),
    h('div', { class: 'composer' }, folders.length > 1 ? folderChoice : null, input, action('Ask', ask, 'primary')),
  );
  const newest = waiting ?? blocks.at(-1);
  if (scrollTo === 'newest' && newest) newest.scrollIntoView({ block: 'start' });
  input.focus();
}

onHostMessage((message) => {
  if (message.kind === 'askState') {
    turns = [...message.turns];
    folders = message.folders;
    pending = message.pending;
    drawFolderChoice();
    if (folders.length > 1) input.placeholder = 'Ask a question about these folders’ documents';
  } else if (message.kind === 'asking') {
    pending = { question: message.question, folders: message.folders };
    failure = null;
  } else if (message.kind === 'answer') {
    pending = null;
    turns.push(message.turn);
  } else if (message.kind === 'error') {
    pending = null;
    failure = message.message;
  } else {
    return;
  }
  draw('newest');
});
draw();
