// The hover's Markdown for an item: its relationships (type, strength, whether a person reviewed
// them; a document's copies and drafts share one line, "also: …") and, over an entity mention,
// the other items that mention it, each a link that opens the item. Everything that comes from a
// document (titles, paths, entity names) is escaped, so a title cannot inject links, HTML or
// formatting into the hover. Pure, so tested without VS Code.

import { describeAlso } from '../../shared/alsoText.ts';
import { describeChangeSinceDecision } from '../../shared/decisionChange.ts';
import type { RelatedResult } from '../../shared/protocol.ts';
import type { ItemRef, RelationshipStatus, RelationshipView } from '../../shared/types.ts';

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

function relationshipLine(folder: string, self: ItemRef, relationship: RelationshipView): string {
  const other = relationship.from.item_id === self.item_id ? relationship.to : relationship.from;
  const type = relationship.type.replace(/_/g, ' ');
  return (
    `- ${escapeMarkdown(type)}: ${commandLink(itemLabel(other), 'relata.openItem', { folder, path: other.path })} ` +
    `(${escapeMarkdown(other.path)}) — strength ${relationship.score.toFixed(2)}, ${reviewStatus(relationship.status)}` +
    (relationship.changed_since_decision ? `, ${escapeMarkdown(describeChangeSinceDecision(relationship.changed_since_decision))}` : '') +
    (relationship.also && relationship.also.length > 0 ? ` (${escapeMarkdown(describeAlso(relationship.also))})` : '') +
    ' · ' +
    commandLink('why?', 'relata.openRelationship', { folder, id: relationship.id })
  );
}

/** Null when there is nothing to say (no relationships, no mention under the cursor, not a copy). */
export function hoverMarkdown(related: RelatedResult): string | null {
  const sections: string[] = [];
  for (const mention of related.mentions) {
    if (mention.items.length === 0) continue;
    const links = mention.items.map((item) => commandLink(itemLabel(item), 'relata.openItem', { folder: related.folder, path: item.path }));
    sections.push(`**${escapeMarkdown(mention.surface)}** (${escapeMarkdown(mention.type)}) is also mentioned in: ${links.join(', ')}`);
  }
  if (related.relationships.length > 0) {
    sections.push(
      [
        `**Relata: related to ${escapeMarkdown(itemLabel(related.item))}** (strength is a heuristic 0-1 score, not a probability)`,
        ...related.relationships.map((relationship) => relationshipLine(related.folder, related.item, relationship)),
      ].join('\n'),
    );
  }
  if (related.identicalCopy) {
    const original = commandLink(related.item.path, 'relata.openItem', { folder: related.folder, path: related.item.path });
    sections.unshift(`**Relata:** this file is identical to ${original}, its original; what Relata knows of it is shown from there.`);
  }
  return sections.length > 0 ? sections.join('\n\n') : null;
}
