// What the @relata chat participant writes to the chat, as a list of parts (markdown, anchors that
// open a source at its passage, references, buttons), so the words are tested without VS Code.
// Document text and the model's answer are untrusted: every piece of them is escaped so that it
// renders as the characters written, never as a link, an image, HTML or a command. The only
// actions are buttons naming Relata's own commands, and none decides anything: a relationship is
// at most offered as a button that opens its panel, where the person confirms or rejects it.

import { describeAlso } from '../../../shared/alsoText.ts';
import { passageView } from '../../../shared/passageView.ts';
import { describeVoices } from '../../../shared/voiceText.ts';
import { relationshipSentence } from '../../../shared/wording.ts';
import { alsoSearchedText } from '../../../shared/spellingText.ts';
import { flaggedSources, INJECTION_CAVEAT, INJECTION_MARK, injectionDetail, injectionHeadline } from '../../../shared/injectionText.ts';
import type { FolderSearch, KnowledgeToolAnswer, RelatedResult } from '../../../shared/protocol.ts';
import type { AnswerResult, Location } from '../../../shared/types.ts';
import type { AskTurn, FolderAnswer } from '../../../shared/webviewMessages.ts';
import { describeReview, readFrom } from '../itemRelationshipRows.ts';
import { describeLocation } from '../locations.ts';
import { isInsideFolder } from '../openTarget.ts';

/** As contributed in package.json (contributes.chatParticipants): the participant and its slash commands. */
export const PARTICIPANT_ID = 'relata.chat';
export const PARTICIPANT_COMMANDS = ['search', 'relationships', 'conflicts'] as const;

/** An item of a folder, at a passage when there is one. */
export interface SourceTarget {
  folder: string;
  path: string;
  location: Location | null;
}

/** The commands a chat button may run: opening things, never a decision. */
export const CHAT_BUTTON_COMMANDS = ['relata.openRelationship', 'relata.openSources'] as const;
export type ChatButtonCommand = (typeof CHAT_BUTTON_COMMANDS)[number];

export type ChatPart =
  /** Markdown built here; any document or model text in it is escaped. */
  | { kind: 'markdown'; text: string }
  /** A link that opens the source at its passage. */
  | { kind: 'anchor'; target: SourceTarget; title: string }
  /** A source listed under the answer's references. */
  | { kind: 'reference'; target: SourceTarget }
  | { kind: 'button'; title: string; command: ChatButtonCommand; arguments: unknown[] };

/** Characters of a quoted passage or sentence in the chat. */
export const QUOTE_CHARS = 300;

/**
 * Untrusted text as markdown that shows exactly its characters: whitespace folded to one line (no
 * heading, list or quote can start), every ASCII punctuation mark backslash-escaped (CommonMark
 * allows that for each one), so `[x](url)`, `<img>`, `https://…`, `&amp;` and `*` render as written.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

function shortened(text: string, limit = QUOTE_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= limit) return flat;
  const cut = flat.lastIndexOf(' ', limit);
  return `${flat.slice(0, cut > limit / 2 ? cut : limit)} …`;
}

const markdown = (text: string): ChatPart => ({ kind: 'markdown', text });
const quote = (text: string) => markdown(`\n> ${escapeMarkdown(shortened(text))}\n\n`);

/**
 * A source quoted as the Ask panel quotes it (shared/passageView.ts): the sentences that answer
 * the question in bold, a sentence either side, "…" for what is left out; about twice a plain
 * quote's length at most.
 */
function answeringQuote(text: string, question: string): ChatPart {
  const pieces: string[] = [];
  let length = 0;
  for (const part of passageView(text, question)) {
    if (length > 2 * QUOTE_CHARS) {
      pieces.push('…');
      break;
    }
    if (part.kind === 'gap') {
      pieces.push('…');
      continue;
    }
    const sentence = escapeMarkdown(shortened(part.text));
    pieces.push(part.highlighted ? `**${sentence}**` : sentence);
    length += part.text.length;
  }
  return markdown(`\n> ${pieces.join(' ')}\n\n`);
}
const figure = (value: number) => value.toFixed(2);

/** Anchors only for a path inside its folder; anything else is named as text and not opened. */
function anchorOr(target: SourceTarget, title: string): ChatPart {
  return isInsideFolder(target.path) ? { kind: 'anchor', target, title } : markdown(escapeMarkdown(title));
}

const openRelationship = (folder: string, id: string, title: string): ChatPart => ({
  kind: 'button',
  title,
  command: 'relata.openRelationship',
  arguments: [{ folder, id }],
});

const openSources = (targets: SourceTarget[], title: string): ChatPart => ({
  kind: 'button',
  title,
  command: 'relata.openSources',
  arguments: [targets.filter((target) => isInsideFolder(target.path))],
});

function sourceParts(folder: string, result: AnswerResult, question: string): ChatPart[] {
  // With no answer written the passages are what was found, not sources an answer used.
  const heading = result.model === null ? '\n**Matching passages**\n\n' : '\n**Sources used**\n\n';
  if (result.sources.length === 0) return [markdown(`${heading}No passage was retrieved for this question.\n`)];
  const parts: ChatPart[] = [markdown(heading)];
  const cited = new Set(result.citations);
  const flagged = flaggedSources(result.injection_warnings);
  for (const source of result.sources) {
    const target = { folder, path: source.path, location: source.location };
    // The chat draws an anchor as the file's name, so the title goes before it as text; a text
    // file's anchor already names its lines, other formats' locations are said after it.
    const place = source.location.kind === 'lines' ? '' : ` · ${escapeMarkdown(describeLocation(source.location, source.path))}`;
    parts.push(
      markdown(
        `- **${escapeMarkdown(source.label)}**${cited.has(source.label) ? ' (cited)' : ''}${flagged.has(source.label) ? ` ⚠ _${INJECTION_MARK}_` : ''} ${source.title ? `${escapeMarkdown(source.title)} ` : ''}`,
      ),
      anchorOr(target, source.path),
      markdown(`${place}${source.also?.length ? ` · ${escapeMarkdown(describeAlso(source.also))}` : ''}\n`),
      answeringQuote(source.passage, question),
    );
  }
  return parts;
}

function uncertaintyParts(folder: string, result: AnswerResult): ChatPart[] {
  const notes: ChatPart[] = [];
  const note = (text: string) => notes.push(markdown(`- ${text}\n`));
  if (result.model_note) note(escapeMarkdown(result.model_note));
  if (result.rejected_reason) note(`The model's reply was rejected: ${escapeMarkdown(result.rejected_reason)}. The sources above are unaffected.`);
  // Sufficiency is the model's judgement: with no model, nobody judged it (the model note says why).
  if (!result.sufficient && result.model !== null) note('The retrieved passages are not enough to answer fully.');
  const located = new Map(result.sources.map((source) => [source.path, source.location]));
  for (const conflict of result.conflicts) {
    const sides = (conflict.sides ?? []).filter((side) => side.value !== '');
    note(
      [
        escapeMarkdown(conflict.detail),
        ...sides.map((side) => `${escapeMarkdown(side.value)}: ${escapeMarkdown(describeVoices(side))}`),
      ].join(' · '),
    );
    notes.push(openRelationship(folder, conflict.relationship_id, 'Show the relationship'));
    const items = conflict.items.map((item) => ({ folder, path: item.path, location: located.get(item.path) ?? null }));
    if (items.length >= 2) notes.push(openSources(items, items.length === 2 ? 'Open both sources' : `Open the ${items.length} sources`));
  }
  for (const relationship of result.inferred_relationships) {
    note(
      `A source was brought in through a relationship suggested by analysis, not yet reviewed: ` +
        `${escapeMarkdown(relationshipSentence(relationship.type, relationship.from.title ?? relationship.from.path, relationship.to.title ?? relationship.to.path))} ` +
        `(strength ${figure(relationship.score)}, not a probability).`,
    );
    notes.push(openRelationship(folder, relationship.id, 'Review it in the relationship panel'));
  }
  if (result.invalid_citations > 0) note(`${result.invalid_citations} citation(s) in the model's reply named no supplied source and were dropped.`);
  for (const unavailable of result.unavailable_paths ?? []) {
    note(`Retrieved without the ${escapeMarkdown(unavailable.path.replace(/_/g, ' '))} search path: ${escapeMarkdown(unavailable.reason)}.`);
  }
  return notes.length === 0 ? [] : [markdown('\n**Uncertainty and conflicts**\n\n'), ...notes];
}

/** Above the answer: a source that tries to instruct the model is the first thing read. */
function injectionParts(result: AnswerResult): ChatPart[] {
  const headline = injectionHeadline(result.injection_warnings);
  if (!headline) return [];
  const details = result.injection_warnings.map((warning) => `- ${escapeMarkdown(injectionDetail(warning))} “${escapeMarkdown(shortened(warning.text))}”\n`);
  return [markdown(`> ⚠ **${escapeMarkdown(headline)}**\n\n${details.join('')}\n_${escapeMarkdown(INJECTION_CAVEAT)}_\n\n`)];
}

function folderAnswerParts(answer: FolderAnswer, question: string, several: boolean): ChatPart[] {
  const parts: ChatPart[] = several ? [markdown(`\n### From ${escapeMarkdown(answer.folder.name)}\n\n`)] : [];
  if (!answer.answer) return [...parts, markdown(`Could not answer from ${escapeMarkdown(answer.folder.name)}: ${escapeMarkdown(answer.error ?? 'no answer')}\n`)];
  const { folder, result } = answer.answer;
  parts.push(...injectionParts(result));
  if (result.answer !== null) parts.push(markdown(`${escapeMarkdown(result.answer)}\n`));
  else parts.push(markdown('_No answer was written; here is what Relata retrieved._\n'));
  if (result.model) parts.push(markdown(`\n_Model: ${escapeMarkdown(result.model)}_\n`));
  parts.push(...sourceParts(folder, result, question), ...uncertaintyParts(folder, result));
  for (const source of result.sources) {
    if (isInsideFolder(source.path)) parts.push({ kind: 'reference', target: { folder, path: source.path, location: source.location } });
  }
  return parts;
}

/** The answer of each folder asked, with its sources, and its uncertainty and conflicts. */
export function answerParts(turn: AskTurn): ChatPart[] {
  return turn.answers.flatMap((answer) => folderAnswerParts(answer, turn.question, turn.answers.length > 1));
}

/** Search results: each opens at its passage, says why it matched, and labels its numbers. */
export function searchParts(folders: readonly FolderSearch[]): ChatPart[] {
  const parts: ChatPart[] = [];
  for (const folder of folders) {
    if (folders.length > 1) parts.push(markdown(`\n### ${escapeMarkdown(folder.name)}\n\n`));
    if (folder.error !== undefined) {
      parts.push(markdown(`Search failed: ${escapeMarkdown(folder.error)}\n`));
      continue;
    }
    const { response } = folder;
    const also = alsoSearchedText(response.also_searched);
    if (also) parts.push(markdown(`_${escapeMarkdown(also[0]!.toUpperCase() + also.slice(1))}._\n\n`));
    if (response.weak_match) parts.push(markdown('_No result names what you named, contains most of your words or is close in meaning: these are only the closest items there were._\n\n'));
    for (const unavailable of response.unavailable_paths) {
      parts.push(markdown(`_Searched without the ${escapeMarkdown(unavailable.path.replace(/_/g, ' '))} path: ${escapeMarkdown(unavailable.reason)}._\n\n`));
    }
    if (response.results.length === 0) parts.push(markdown('No matching items.\n'));
    response.results.forEach((result, index) => {
      const location = result.passage?.location ?? null;
      const numbers = [
        `relevance ${figure(result.query_relevance)} (relative to these results, not a probability)`,
        result.semantic_similarity === null ? 'similarity n/a (no vectors yet)' : `similarity ${figure(result.semantic_similarity)} (cosine to your query, not a probability)`,
        ...(result.expanded_via ? [`strength ${figure(result.expanded_via.score)} of the ${result.expanded_via.status} relationship that reached it (not a probability)`] : []),
      ];
      parts.push(
        markdown(`${index + 1}. ${result.title ? `${escapeMarkdown(result.title)} ` : ''}`),
        anchorOr({ folder: folder.folder, path: result.path, location }, result.path),
        markdown(`${location ? ` · ${escapeMarkdown(describeLocation(location, result.path))}` : ''}\n   ${numbers.join(' · ')}\n`),
      );
      if (result.why_matched.length > 0) parts.push(markdown(`   Why it matched: ${escapeMarkdown(result.why_matched.join(' '))}\n`));
      if (result.passage) parts.push(quote(result.passage.text));
    });
  }
  return parts;
}

/** The active file's relationships: each as read from this file, with its strength and review, and a button to its panel. */
export function relationshipParts(related: RelatedResult | null, activePath: string | null): ChatPart[] {
  if (!activePath) return [markdown('Open a file of an indexed folder first: `/relationships` lists the relationships of the active file.\n')];
  if (!related) return [markdown(`${escapeMarkdown(activePath)} is not an indexed item (yet).\n`)];
  if (related.relationships.length === 0) return [markdown(`${escapeMarkdown(related.item.path)}: Relata has found no relationships for it (none pending or confirmed).\n`)];
  const parts: ChatPart[] = [markdown(`**Relationships of ${escapeMarkdown(related.item.title ?? related.item.path)}**, strongest first\n\n`)];
  related.relationships.forEach((relationship, index) => {
    const { phrase, other } = readFrom(related.item, relationship);
    parts.push(
      markdown(`${index + 1}. ${escapeMarkdown(phrase)} ${other.title ? `${escapeMarkdown(other.title)} ` : ''}`),
      anchorOr({ folder: related.folder, path: other.path, location: null }, other.path),
      markdown(` · strength ${figure(relationship.score)} (not a probability) · ${describeReview(relationship.status)}\n`),
    );
    for (const conflict of related.conflicts?.[relationship.id] ?? []) {
      parts.push(markdown(`   ${escapeMarkdown(conflict.detail)}\n`));
    }
  });
  for (const relationship of related.relationships.slice(0, MAX_BUTTONS)) {
    const { phrase, other } = readFrom(related.item, relationship);
    parts.push(openRelationship(related.folder, relationship.id, `Show: ${shortened(`${phrase} ${other.title ?? other.path}`, 60)}`));
  }
  return parts;
}

/** Buttons offered under one list; the rest are reached from the Proposals view or the hover. */
export const MAX_BUTTONS = 5;

/** The fields of a `conflicts` tool answer this view reads (server/src/knowledge/knowledgeTools.ts conflictsOf), checked, since it arrives untyped. */
interface ConflictRow {
  relationship: { id: string; status: string; strength: { value: number } };
  detail: string;
  /** `copies`: the other files of the side's copy group, one voice with it (relationship-score-v2, rule 6). */
  sides: { path: string; title: string | null; figure: string; sentence: { untrusted_document_text: string }; copies?: string[] }[];
}

function conflictRows(result: unknown): ConflictRow[] {
  const conflicts = (result as { conflicts?: unknown } | null)?.conflicts;
  if (!Array.isArray(conflicts)) return [];
  return conflicts.filter(
    (row): row is ConflictRow =>
      typeof row?.relationship?.id === 'string' && typeof row.detail === 'string' && Array.isArray(row.sides) &&
      row.sides.every((side: ConflictRow['sides'][number]) => typeof side?.path === 'string' && typeof side.sentence?.untrusted_document_text === 'string'),
  );
}

/** A side's copies, counted with it as one voice: " and 2 copies (archive/memo.md, drafts/memo-v2.md)". */
function copiesOf(side: ConflictRow['sides'][number]): string {
  const copies = Array.isArray(side.copies) ? side.copies.filter((copy) => typeof copy === 'string') : [];
  if (copies.length === 0) return '';
  return ` and ${copies.length} ${copies.length === 1 ? 'copy' : 'copies'} (${escapeMarkdown(copies.join(', '))})`;
}

/** The recorded contradictions: both figures with their sentences, a button to the relationship and to open both sides. */
export function conflictParts(folders: readonly KnowledgeToolAnswer[]): ChatPart[] {
  const parts: ChatPart[] = [];
  for (const answer of folders) {
    if (folders.length > 1) parts.push(markdown(`\n### ${escapeMarkdown(answer.name)}\n\n`));
    if (answer.error !== undefined) {
      parts.push(markdown(`${escapeMarkdown(answer.error)}\n`));
      continue;
    }
    const rows = conflictRows(answer.result);
    if (rows.length === 0) parts.push(markdown('No contradiction is recorded between the items of this folder.\n'));
    rows.forEach((row, index) => {
      parts.push(markdown(`${index + 1}. ${escapeMarkdown(row.detail)} (${escapeMarkdown(row.relationship.status)}, strength ${figure(row.relationship.strength.value)}, not a probability)\n`));
      for (const side of row.sides) {
        parts.push(
          markdown(`   - ${side.title ? `${escapeMarkdown(side.title)} ` : ''}`),
          anchorOr({ folder: answer.folder, path: side.path, location: null }, side.path),
          markdown(`${copiesOf(side)} says ${escapeMarkdown(String(side.figure))}: “${escapeMarkdown(shortened(side.sentence.untrusted_document_text))}”\n`),
        );
      }
      if (index < MAX_BUTTONS) {
        parts.push(openRelationship(answer.folder, row.relationship.id, 'Show the relationship'));
        parts.push(openSources(row.sides.map((side) => ({ folder: answer.folder, path: side.path, location: null })), 'Open both sources'));
      }
    });
  }
  return parts;
}
