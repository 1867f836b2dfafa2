// The hover's Markdown. Over a name Relata knows (an entity it found in the item), the other
// items that mention it; over the document's first line, the item's relationships (type,
// strength, whether a person reviewed them, and for a contradiction the two figures; a
// document's copies and drafts share one line, "also: …") and the metadata it gives itself. Anywhere else, nothing: the hover is
// not shown over every word. Everything that comes from a document (titles, paths, entity names,
// figures) is escaped, so a title cannot inject links, HTML or formatting into the hover. Pure,
// so tested without VS Code.

import { describeAlso } from '../../shared/alsoText.ts';
import { describeChangeSinceDecision, type DateText } from '../../shared/decisionChange.ts';
import { describeMetadata } from '../../shared/metadataText.ts';
import { typeVerb } from '../../shared/wording.ts';
import type { ConflictDetail, RelatedResult } from '../../shared/protocol.ts';
import { MODEL_FOUND_LABEL, type ItemRef, type RelationshipStatus, type RelationshipView } from '../../shared/types.ts';

/** Commands a hover link may run (the hover's MarkdownString trusts exactly these). */
export const HOVER_COMMANDS = ['relata.openItem', 'relata.openRelationship'] as const;

const MARKDOWN_SPECIAL = /[\\`*_{}[\]()#+\-.!|<>~&"']/g;

/** Text shown literally in Markdown: special characters backslash-escaped, line breaks flattened. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(MARKDOWN_SPECIAL, (char) => (char === '<' ? '&lt;' : char === '>' ? '&gt;' : char === '&' ? '&amp;' : `\\${char}`));
}

export function commandLink(label: string, command: (typeof HOVER_COMMANDS)[number], args: unknown): string {
  return `[${escapeMarkdown(label)}](command:${command}?${encodeURIComponent(JSON.stringify([args]))})`;
}

export function reviewStatus(status: RelationshipStatus): string {
  return status === 'confirmed' ? 'confirmed' : status === 'rejected' ? 'rejected' : 'suggested by analysis, not yet reviewed';
}

const itemLabel = (ref: ItemRef) => ref.title ?? ref.path;

/** A contradiction's figures, each with the item that states it, this file's first: "cost: 42000 EUR (this file) vs 51500 EUR (Q2 budget)". */
function figuresLine(self: ItemRef, conflict: ConflictDetail): string {
  const side = ({ item, value }: ConflictDetail['sides'][number]) => `**${escapeMarkdown(value)}** (${item.item_id === self.item_id ? 'this file' : escapeMarkdown(itemLabel(item))})`;
  const [first, second] = conflict.sides[1].item.item_id === self.item_id ? [conflict.sides[1], conflict.sides[0]] : conflict.sides;
  return `  - ${escapeMarkdown(conflict.attribute)} of ${escapeMarkdown(conflict.subject)}: ${side(first)} vs ${side(second)}`;
}

function relationshipLines(folder: string, self: ItemRef, relationship: RelationshipView, conflicts: readonly ConflictDetail[], dateText?: DateText): string[] {
  const fromHere = relationship.from.item_id === self.item_id;
  const other = fromHere ? relationship.to : relationship.from;
  const type = typeVerb(relationship.type, fromHere ? 'forward' : 'backward');
  const line =
    `- ${escapeMarkdown(type)}: ${commandLink(itemLabel(other), 'relata.openItem', { folder, path: other.path })} ` +
    `(${escapeMarkdown(other.path)}) — strength ${relationship.score.toFixed(2)}, ${reviewStatus(relationship.status)}` +
    (relationship.changed_since_decision ? `, ${escapeMarkdown(describeChangeSinceDecision(relationship.changed_since_decision, dateText))}` : '') +
    (relationship.also && relationship.also.length > 0 ? ` (${escapeMarkdown(describeAlso(relationship.also))})` : '') +
    ' · ' +
    commandLink('why?', 'relata.openRelationship', { folder, id: relationship.id });
  return [line, ...conflicts.map((conflict) => figuresLine(self, conflict))];
}

function mentionSection(related: RelatedResult, mention: RelatedResult['mentions'][number]): string {
  const name = `**${escapeMarkdown(mention.surface)}** (${escapeMarkdown(mention.type)}${mention.byModel ? `, ${MODEL_FOUND_LABEL}` : ''})`;
  if (mention.items.length === 0) return `${name}: Relata found no other item that mentions it.`;
  const links = mention.items.map((item) => commandLink(itemLabel(item), 'relata.openItem', { folder: related.folder, path: item.path }));
  return `${name} is also mentioned in: ${links.join(', ')}`;
}

export interface HoverOptions {
  /** The hover is on the document's first line of text: the item's relationships (or that it is a copy) are shown there, and only there. */
  firstLine: boolean;
  /** How a decision's date reads (the user's locale); the ISO day when not given. */
  dateText?: DateText;
}

/**
 * The lines a hover speaks for the whole item over: the document's first line of text, and before
 * it a leading front-matter block (`---` … `---`), where the metadata the hover shows is written.
 * Blank lines are passed over, so in a Markdown file the first line of text is the title a person
 * reads. Line 0 alone when no text is found.
 */
export function itemLines(lineCount: number, lineText: (line: number) => string, lookAhead = 200): { first: number; last: number } {
  const last = Math.min(lineCount, lookAhead);
  let line = 0;
  while (line < last && lineText(line).trim() === '') line += 1;
  let frontMatter: number | null = null;
  if (line < last && lineText(line).trim() === '---') {
    let close = line + 1;
    while (close < last && !/^(---|\.\.\.)$/.test(lineText(close).trim())) close += 1;
    if (close < last) [frontMatter, line] = [line, close + 1];
  }
  while (line < last && lineText(line).trim() === '') line += 1;
  if (line >= last) return { first: 0, last: 0 };
  return { first: frontMatter ?? line, last: line };
}

/** Null when there is nothing to say: no name Relata knows under the cursor and not on the first line (or nothing known of the item there). */
export function hoverMarkdown(related: RelatedResult, options: HoverOptions): string | null {
  const sections = related.mentions.map((mention) => mentionSection(related, mention));
  if (options.firstLine && related.relationships.length > 0) {
    const similarity = related.relationships.some((relationship) => relationship.also?.some((member) => member.similarity !== null));
    sections.push(
      [
        `**Relata: this file's relationships** (strength${similarity ? ' and similarity are heuristic 0-1 figures, not probabilities' : ' is a heuristic 0-1 score, not a probability'})`,
        ...related.relationships.flatMap((relationship) =>
          relationshipLines(related.folder, related.item, relationship, related.conflicts?.[relationship.id] ?? [], options.dateText),
        ),
      ].join('\n'),
    );
  }
  if (options.firstLine && related.metadata && related.metadata.length > 0) {
    sections.push(`**Metadata:** ${escapeMarkdown(describeMetadata(related.metadata))}`);
  }
  if (options.firstLine && related.language) {
    sections.push(`**Language:** ${escapeMarkdown(new Intl.DisplayNames(['en'], { type: 'language' }).of(related.language) ?? related.language)}`);
  }
  if (options.firstLine && related.identicalCopy) {
    const original = commandLink(related.item.path, 'relata.openItem', { folder: related.folder, path: related.item.path });
    sections.unshift(`**Relata:** this file is identical to ${original}, its original; what Relata knows of it is shown from there.`);
  }
  return sections.length > 0 ? sections.join('\n\n') : null;
}
