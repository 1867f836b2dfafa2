// How a near-duplicate group's other members are named, the same words in the CLI, the hover,
// the search list, the Ask panel and the Proposals tree: "also: drafts/report-v2.md,
// near-duplicate, similarity 0.97".

import type { AlsoItem } from './types.ts';

export function describeAlso(also: readonly AlsoItem[]): string {
  return `also: ${also
    .map((member) =>
      member.kind === 'duplicate'
        ? `${member.path}, identical copy`
        : `${member.path}, near-duplicate${member.similarity === null ? '' : `, similarity ${member.similarity.toFixed(2)}`}`,
    )
    .join('; ')}`;
}
