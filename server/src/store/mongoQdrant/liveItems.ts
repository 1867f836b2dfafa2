// The distinct items behind a set of findings (entities, claims, metadata entries), kept only if
// the item is live: one pipeline for every discovery look-up that starts from findings. Findings
// of a tombstoned item are removed with it, but a look-up must not rely on that having happened.

import { COLLECTIONS } from './collections.ts';

/** Aggregation stages: the findings matching `match`, grouped by item, live items only, at most `limit`, in id order. */
export function distinctLiveItems(scope: { workspace: string; folder: string }, match: object, limit: number): object[] {
  const { workspace, folder } = scope;
  return [
    { $match: match },
    { $group: { _id: '$itemId' } },
    { $sort: { _id: 1 } },
    {
      $lookup: {
        from: COLLECTIONS.items,
        let: { itemId: '$_id' },
        pipeline: [{ $match: { workspace, folder, live: true, $expr: { $eq: ['$id', '$$itemId'] } } }, { $project: { _id: 1 } }],
        as: 'item',
      },
    },
    { $match: { 'item.0': { $exists: true } } },
    { $limit: limit },
    { $project: { _id: 1 } },
  ];
}
