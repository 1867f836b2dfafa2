// How each relationship type looks in the Proposals view: its icon (a codicon), its colour (a
// theme colour id, so every theme renders it) and its place in the review order. Contradictions
// come first and stand out in the error colour, supports next; date-order proposals, the most
// numerous and least telling, come last and are muted. Plain data, so the tree is tested without VS Code.

import { byReviewOrder, REVIEW_ORDER } from '../../../shared/reviewOrder.ts';
import type { RelationshipType } from '../../../shared/types.ts';

export interface RelationshipLook {
  /** A codicon id (https://microsoft.github.io/vscode-codicons/). */
  icon: string;
  /** A theme colour id. */
  color: string;
}

export const RELATIONSHIP_LOOKS: Readonly<Record<RelationshipType, RelationshipLook>> = Object.freeze({
  contradicts: { icon: 'warning', color: 'list.errorForeground' },
  supports: { icon: 'pass-filled', color: 'charts.green' },
  derived_from: { icon: 'repo-forked', color: 'charts.purple' },
  supersedes: { icon: 'versions', color: 'charts.orange' },
  updates: { icon: 'history', color: 'charts.orange' },
  same_entity_as: { icon: 'link', color: 'charts.blue' },
  possibly_explains: { icon: 'lightbulb', color: 'charts.yellow' },
  links_to: { icon: 'references', color: 'textLink.foreground' },
  similar_to: { icon: 'files', color: 'charts.blue' },
  mentions: { icon: 'mention', color: 'descriptionForeground' },
  occurred_before: { icon: 'arrow-circle-left', color: 'descriptionForeground' },
  occurred_after: { icon: 'arrow-circle-right', color: 'descriptionForeground' },
});

export { byReviewOrder, REVIEW_ORDER };


const UNKNOWN_LOOK: RelationshipLook = { icon: 'circle-outline', color: 'descriptionForeground' };

export const lookOf = (type: string): RelationshipLook => RELATIONSHIP_LOOKS[type as RelationshipType] ?? UNKNOWN_LOOK;
