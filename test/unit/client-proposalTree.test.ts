// The Proposals view's tree: pending proposals grouped by type in review order (contradictions,
// supports, then the rest) and strongest first, labels that are the pair told apart with the
// strength (and type) as description, counts of the rows shown, one
// icon and colour per type, Confirmed, Rejected and Conflicts sections, decisions with their
// dates in the user's locale and notes, the filter, the badge's count, inline actions keyed by
// status, folders on top only when several are open.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FolderRelationships } from '../../shared/protocol.ts';
import type { RelationshipView } from '../../shared/types.ts';
import { localDateText } from '../../shared/decisionDate.ts';
import { describeFilter, NO_FILTER, readProposalFilter } from '../../client/src/proposals/proposalFilter.ts';
import { pendingCount, proposalTree, shownCount, type ProposalNode } from '../../client/src/proposals/proposalTree.ts';
import { countWords, pairLabel } from '../../client/src/proposals/pairLabel.ts';
import { shortenFront, shortenMiddle } from '../../client/src/shortText.ts';
import { RELATIONSHIP_LOOKS, REVIEW_ORDER } from '../../client/src/proposals/relationshipLook.ts';
import { relationshipView } from '../support/relationshipViews.ts';

function relationship(id: string, type: RelationshipView['type'], score: number, status: RelationshipView['status'] = 'pending'): RelationshipView {
  return relationshipView({
    id,
    from: { item_id: `${id}-a`, path: `a/${id}.md`, title: `A ${id}` },
    to: { item_id: `${id}-b`, path: `b/${id}.md`, title: null },
    type,
    score,
    status,
    signals: [{ type: 'shared_entity', value: 'Example Ltd', strength: 1, weight: 0.25, detail: 'Both items refer to this organisation.' }],
  });
}

const labels = (nodes: ProposalNode[]) => nodes.map((node) => `${node.label}${'description' in node ? ` (${node.description})` : ''}`);
const children = (node: ProposalNode | undefined) => (node && node.kind !== 'proposal' && node.kind !== 'more' ? node.children : []);

test('pending proposals are grouped by type, strongest first; decided ones have their own sections', () => {
  const roots = proposalTree([
    {
      folder: 'file:///demo',
      name: 'demo',
      relationships: [
        relationship('r1', 'similar_to', 0.3),
        relationship('r2', 'contradicts', 0.6),
        relationship('r3', 'similar_to', 0.5),
        relationship('r4', 'mentions', 0.4, 'confirmed'),
        relationship('r5', 'supports', 0.3, 'rejected'),
        relationship('r6', 'contradicts', 0.7, 'confirmed'),
      ],
    },
  ]);
  assert.deepEqual(labels(roots), ['Pending review (3)', 'Confirmed (2)', 'Rejected (1)', 'Conflicts (2)']);
  const groups = children(roots[0]);
  assert.deepEqual(labels(groups), ['contradicts (1)', 'similar (2)']);
  assert.deepEqual(children(groups[1]).map((node) => node.kind === 'proposal' && node.relationship.id), ['r3', 'r1']);
  assert.deepEqual(children(roots[1]).map((node) => node.kind === 'proposal' && node.relationship.id), ['r6', 'r4']);
  assert.deepEqual(children(roots[3]).map((node) => node.kind === 'proposal' && node.relationship.id), ['r6', 'r2']);
});

test('a proposal row names both items, its strength and type, and carries its status for the inline actions', () => {
  const [pending] = proposalTree([{ folder: 'file:///demo', name: 'demo', relationships: [relationship('r1', 'similar_to', 0.296)] }]);
  const row = children(children(pending)[0])[0]!;
  assert.equal(row.kind, 'proposal');
  if (row.kind !== 'proposal') return;
  assert.equal(row.label, 'A r1 ↔ r1', 'the pair on one line; an untitled item is named by its file, without the extension');
  assert.equal(row.description, '0.30', 'under its type\u2019s group the strength is the description');
  assert.match(row.tooltip, /^A r1 is similar to b\/r1\.md · strength 0\.30\na\/r1\.md ↔ b\/r1\.md/, 'the tooltip has the full pair and paths, as a sentence');
  assert.equal(row.contextValue, 'relata.proposal.pending');
  assert.match(row.tooltip, /suggested by analysis, not yet reviewed/);
  assert.match(row.tooltip, /not a probability/);
  assert.match(row.tooltip, /shared name Example Ltd: strength 1 × weight 0\.25/, 'the signal by its name in words');
  assert.doesNotMatch(row.tooltip, /_/, 'no identifier in what a person reads');
  assert.equal(row.folder, 'file:///demo');
});

test('a proposal back in review says it changed since the person confirmed it, and what changed', () => {
  const returned: RelationshipView = {
    ...relationship('r1', 'supports', 0.47),
    changed_since_decision: {
      decision: 'confirmed',
      decided_by: 'ana',
      decided_at: '2026-12-01T10:00:00Z',
      note: 'real overrun',
      changes: ['type was contradicts, now supports', 'cost figures 42000 vs 51500 now agree'],
    },
  };
  const [pending] = proposalTree([{ folder: 'file:///demo', name: 'demo', relationships: [returned] }]);
  const row = children(children(pending)[0])[0]!;
  assert.equal(row.kind, 'proposal');
  if (row.kind !== 'proposal') return;
  assert.equal(row.description, '0.47 · changed since you confirmed it');
  assert.match(
    row.tooltip,
    /changed since you confirmed it \(confirmed by ana on 2026-12-01, note: real overrun\): type was contradicts, now supports; cost figures 42000 vs 51500 now agree/,
  );
});

test('ids stay unique when one relationship appears in two sections', () => {
  const roots = proposalTree([{ folder: 'file:///demo', name: 'demo', relationships: [relationship('r1', 'contradicts', 0.5)] }]);
  const ids: string[] = [];
  const walk = (nodes: ProposalNode[]) => nodes.forEach((node) => (ids.push(node.id), walk(children(node))));
  walk(roots);
  assert.equal(new Set(ids).size, ids.length);
});

test('with several folders open, each folder is a node of its own', () => {
  const roots = proposalTree([
    { folder: 'file:///a', name: 'a', relationships: [] },
    { folder: 'file:///b', name: 'b', relationships: [relationship('r1', 'supports', 0.4)] },
  ]);
  assert.deepEqual(roots.map((node) => node.kind), ['folder', 'folder']);
  assert.deepEqual(labels(children(roots[1])), ['Pending review (1)', 'Confirmed (0)', 'Rejected (0)', 'Conflicts (0)']);
});

test('the same relationship of a document and its near-copy is one row; the copy\u2019s own is under it, decidable on its own', () => {
  const memo = { item_id: 'memo', path: 'finance/memo.md', title: 'Budget memo' };
  const draft = { item_id: 'draft', path: 'drafts/memo-v2.md', title: 'Budget memo' };
  const invoice = { item_id: 'invoice', path: 'finance/invoice.md', title: 'Invoice' };
  const between = (id: string, from: typeof memo, to: typeof memo, type: RelationshipView['type'], score: number): RelationshipView => ({
    ...relationship(id, type, score),
    from,
    to,
  });
  const roots = proposalTree([
    {
      folder: 'file:///copies',
      name: 'copies',
      relationships: [
        between('r-memo', memo, invoice, 'contradicts', 0.87),
        between('r-draft', draft, invoice, 'contradicts', 0.88),
        { ...between('r-copies', memo, draft, 'supports', 1), near_duplicate: true },
      ],
      copyGroups: [{ representative: 'memo', also: [{ item_id: 'draft', path: draft.path, kind: 'near_duplicate', similarity: 0.99 }] }],
    },
  ]);
  const contradicts = children(roots[0]).find((group) => group.label === 'contradicts')!;
  const rows = children(contradicts);
  assert.equal(rows.length, 1, 'one row for the disagreement with the invoice');
  const row = rows[0]!;
  assert.ok(row.kind === 'proposal');
  assert.equal(row.relationship.id, 'r-memo', 'the row decides the representative\u2019s relationship');
  assert.match(row.description, /also: 1 near-copy$/);
  assert.deepEqual(row.children?.map((child) => child.kind === 'proposal' && [child.relationship.id, child.contextValue]), [['r-draft', 'relata.proposal.pending']]);
  assert.equal(children(roots[3]).length, 1, 'the Conflicts section lists it once too');
  assert.equal(contradicts.kind === 'group' && contradicts.description, '1 (+1 copy)', 'the count is of the rows shown, the copy folded under one said apart');
  assert.equal(roots[3]!.kind === 'section' && roots[3]!.description, '1 (+1 copy)');
});

test('without copy groups every relationship keeps its own row', () => {
  const roots = proposalTree([{ folder: 'file:///demo', name: 'demo', relationships: [relationship('r1', 'contradicts', 0.6), relationship('r2', 'contradicts', 0.5)] }]);
  const rows = children(children(roots[0])[0]);
  assert.deepEqual(rows.map((node) => node.kind === 'proposal' && node.children === undefined), [true, true]);
});

test('contradictions come first, then supports, then the rest, with date order last; each type has its own icon and colour', () => {
  const roots = proposalTree([
    {
      folder: 'file:///demo',
      name: 'demo',
      relationships: [
        relationship('r1', 'occurred_before', 0.9),
        relationship('r2', 'similar_to', 0.8),
        relationship('r3', 'supports', 0.3),
        relationship('r4', 'contradicts', 0.26),
        relationship('r5', 'derived_from', 0.5),
      ],
    },
  ]);
  const groups = children(roots[0]);
  assert.deepEqual(groups.map((group) => group.label), ['contradicts', 'supports', 'derived from', 'similar', 'happened before']);
  const looks = groups.map((group) => (group.kind === 'group' ? group.look : null));
  assert.deepEqual(looks[0], RELATIONSHIP_LOOKS.contradicts);
  assert.equal(looks[0]!.color, 'list.errorForeground', 'a contradiction stands out in the error colour');
  const row = children(groups[0])[0]!;
  assert.ok(row.kind === 'proposal' && row.look === RELATIONSHIP_LOOKS.contradicts, 'the row carries its type\u2019s look');
  const distinct = new Set(REVIEW_ORDER.map((type) => `${RELATIONSHIP_LOOKS[type].icon}|${RELATIONSHIP_LOOKS[type].color}`));
  assert.equal(distinct.size, REVIEW_ORDER.length, 'no two types look alike');
  assert.equal(new Set(REVIEW_ORDER).size, Object.keys(RELATIONSHIP_LOOKS).length, 'every type has a place in the review order');
});

test('in a section of mixed types (Confirmed), contradictions still come first, then by strength', () => {
  const roots = proposalTree([
    {
      folder: 'file:///demo',
      name: 'demo',
      relationships: [relationship('r1', 'similar_to', 0.9, 'confirmed'), relationship('r2', 'contradicts', 0.4, 'confirmed'), relationship('r3', 'supports', 0.5, 'confirmed')],
    },
  ]);
  assert.deepEqual(children(roots[1]).map((node) => node.kind === 'proposal' && node.relationship.id), ['r2', 'r3', 'r1']);
  assert.deepEqual(
    children(roots[1]).map((node) => [node.label, 'description' in node && node.description]),
    [
      ['A r2 ↔ r2', 'contradicts 0.40'],
      ['A r3 ↔ r3', 'supports 0.50'],
      ['A r1 ↔ r1', 'similar 0.90'],
    ],
    'in a section of mixed types the description names the type before the strength',
  );
});

test('long names are shortened (at a word when one ends late enough) so both show; the tooltip has them in full', () => {
  const long = { ...relationship('r1', 'contradicts', 0.72), from: { item_id: 'a', path: 'a.md', title: 'Gantry crane GC-2 refurbishment final report, revised' } };
  const row = children(children(proposalTree([{ folder: 'file:///demo', name: 'demo', relationships: [long] }])[0])[0])[0]!;
  assert.ok(row.kind === 'proposal');
  assert.equal(row.label, 'Gantry cra… ↔ r1');
  assert.equal(shortenFront('Incident report INC-2025-031', 11), 'Incident…', 'a word that ends late enough is kept whole');
  assert.equal(shortenFront('Finance memo on the budget', 13), 'Finance memo…', 'a word ending exactly at the cut is kept');
  assert.equal(row.description, '0.72');
  assert.match(row.tooltip, /Gantry crane GC-2 refurbishment final report, revised contradicts b\/r1\.md/);
});

test('two documents with one title are told apart by their file names, each name short enough for the sidebar', () => {
  const memo = { item_id: 'm', path: 'finance/budget-memo.md', title: 'Budget memo: gantry crane GC-2 refurbishment' };
  const draft = { item_id: 'd', path: 'drafts/budget-memo-v2.md', title: 'Budget memo: gantry crane GC-2 refurbishment' };
  const pair = { ...relationship('r1', 'contradicts', 0.89), from: memo, to: draft };
  const [pending] = proposalTree([{ folder: 'file:///demo', name: 'demo', relationships: [pair] }]);
  const row = children(children(pending)[0])[0]!;
  assert.equal(row.label, 'budget-memo ↔ budge…mo-v2', 'the file names, the second cut in its middle so its version shows');
  assert.equal(pairLabel({ path: 'a/gantry-crane-report.md', title: null }, { path: 'b/gantry-crane-report-v2.md', title: null }, 13), 'gantry…report ↔ gantry…ort-v2', 'file names alike at the front keep their ends');
  assert.equal(pairLabel({ path: 'a/notes.md', title: 'Notes' }, { path: 'b/notes.md', title: 'Notes' }, 13), 'a/notes ↔ b/notes', 'one file name in two folders: the paths');
});

test('in multi-root each name is shorter, so the pair fits under the extra folder level', () => {
  const long = { ...relationship('r1', 'supports', 0.5), from: { item_id: 'a', path: 'a.md', title: 'Maintenance report for the crane' }, to: { item_id: 'b', path: 'b.md', title: 'Finance memo on the budget' } };
  const one = children(children(proposalTree([{ folder: 'file:///a', name: 'a', relationships: [long] }])[0])[0])[0]!;
  const several = proposalTree([
    { folder: 'file:///a', name: 'a', relationships: [long] },
    { folder: 'file:///b', name: 'b', relationships: [] },
  ]);
  const nested = children(children(children(several[0])[0])[0])[0]!;
  assert.equal(one.label, 'Maintenanc… ↔ Finance me…');
  assert.equal(nested.label, 'Maintenan… ↔ Finance…');
  for (const name of one.label.split(' ↔ ')) assert.ok(name.length <= 11, name);
  for (const name of nested.label.split(' ↔ ')) assert.ok(name.length <= 10, name);
});

test('counts are of the rows shown: a copy\u2019s relationship folded under a row is said apart', () => {
  assert.equal(countWords(2, 0), '2');
  assert.equal(countWords(2, 1), '2 (+1 copy)');
  assert.equal(countWords(1, 3), '1 (+3 copies)');
  const memo = { item_id: 'memo', path: 'finance/memo.md', title: 'Budget memo' };
  const draft = { item_id: 'draft', path: 'drafts/memo.md', title: 'Budget memo' };
  const invoice = { item_id: 'invoice', path: 'finance/invoice.md', title: 'Invoice' };
  const report = { item_id: 'report', path: 'ops/report.md', title: 'Report' };
  const roots = proposalTree([
    {
      folder: 'file:///copies',
      name: 'copies',
      relationships: [
        { ...relationship('r1', 'contradicts', 0.87), from: memo, to: invoice },
        { ...relationship('r2', 'contradicts', 0.88), from: draft, to: invoice },
        { ...relationship('r3', 'contradicts', 0.6), from: report, to: invoice },
      ],
      copyGroups: [{ representative: 'memo', also: [{ item_id: 'draft', path: draft.path, kind: 'near_duplicate', similarity: 0.99 }] }],
    },
  ]);
  const group = children(roots[0])[0]!;
  assert.equal(children(group).length, 2, 'two rows');
  assert.deepEqual(labels(roots), ['Pending review (2 (+1 copy))', 'Confirmed (0)', 'Rejected (0)', 'Conflicts (2 (+1 copy))']);
  assert.deepEqual(labels([group]), ['contradicts (2 (+1 copy))'], 'not "contradicts 3" over two rows');
});

test('a decided row shows who decided, when in the user\u2019s locale (not raw ISO), and the note', () => {
  const decided: RelationshipView = { ...relationship('r1', 'contradicts', 1, 'confirmed'), decided_by: 'ana', decided_at: '2026-12-03T09:15:00Z', note: 'real overrun' };
  for (const locale of ['en-GB', 'de-DE', 'ja-JP']) {
    const dateText = localDateText(locale);
    const roots = proposalTree([{ folder: 'file:///demo', name: 'demo', relationships: [decided] }], { dateText });
    const row = children(roots[1])[0]!;
    assert.ok(row.kind === 'proposal');
    const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date('2026-12-03T09:15:00Z'));
    assert.equal(row.description, `contradicts 1.00 · confirmed ${when} · “real overrun”`);
    assert.match(row.tooltip, new RegExp(`confirmed by ana on ${when.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.ok(!row.description.includes('2026-12-03') && !row.tooltip.includes('2026-12-03T'), `no raw ISO in ${locale}`);
  }
  assert.equal(localDateText('en')('not a date'), 'not a date', 'an unreadable stamp is shown as stored');
});

test('the filter keeps the chosen types, statuses and minimum strength, and drops sections it emptied', () => {
  const folder = {
    folder: 'file:///demo',
    name: 'demo',
    relationships: [
      relationship('r1', 'contradicts', 0.6),
      relationship('r2', 'contradicts', 0.3),
      relationship('r3', 'supports', 0.7),
      relationship('r4', 'contradicts', 0.9, 'confirmed'),
      relationship('r5', 'occurred_after', 0.8),
    ],
  };
  const roots = proposalTree([folder], { filter: { types: ['contradicts'], statuses: ['pending'], minStrength: 0.4 } });
  assert.deepEqual(labels(roots), ['Pending review (1)', 'Conflicts (1)']);
  assert.deepEqual(children(children(roots[0])[0]).map((node) => node.kind === 'proposal' && node.relationship.id), ['r1']);
  assert.equal(shownCount([folder], { types: ['supports'], statuses: ['confirmed'], minStrength: 0 }), 0);
  assert.equal(shownCount([folder], NO_FILTER), 5);
  assert.deepEqual(labels(proposalTree([folder])), ['Pending review (4)', 'Confirmed (1)', 'Rejected (0)', 'Conflicts (3)'], 'without a filter every section shows');
});

test('a remembered filter is read back as untrusted: malformed parts mean no narrowing', () => {
  assert.deepEqual(readProposalFilter({ types: ['contradicts', 'nonsense'], statuses: 'pending', minStrength: 7 }), { types: ['contradicts'], statuses: null, minStrength: 0 });
  assert.deepEqual(readProposalFilter('garbage'), NO_FILTER);
  assert.deepEqual(readProposalFilter({ types: [], statuses: ['rejected'], minStrength: 0.5 }), { types: null, statuses: ['rejected'], minStrength: 0.5 });
});

test('the badge counts every proposal waiting for review, in every folder', () => {
  const folders = [
    { folder: 'file:///a', name: 'a', relationships: [relationship('r1', 'contradicts', 0.5), relationship('r2', 'supports', 0.5, 'confirmed')] },
    { folder: 'file:///b', name: 'b', relationships: [relationship('r3', 'similar_to', 0.4), relationship('r4', 'mentions', 0.3)] },
  ];
  assert.equal(pendingCount(folders), 3);
  assert.equal(pendingCount([]), 0);
});

test('a relationship resting only on a link is in "Linked in the documents", outside the badge; other evidence brings it to review', () => {
  const link = { type: 'document_link' as const, value: 'a.md links to b.md at line 3: [b](b.md)', strength: 1, weight: 0.3, detail: 'The author of a.md links to b.md.' };
  const similarity = { type: 'semantic_similarity' as const, value: '0.80 cosine', strength: 0.55, weight: 0.3, detail: 'How alike.' };
  const linkedOnly = { ...relationship('l1', 'links_to', 0.46), signals: [link, similarity] };
  const linkedAndNamed = relationship('l2', 'links_to', 0.55);
  linkedAndNamed.signals = [link, ...linkedAndNamed.signals];
  const confirmedLink = { ...relationship('l3', 'links_to', 1, 'confirmed'), signals: [link] };
  const folder: FolderRelationships = { folder: 'file:///f', name: 'f', relationships: [linkedOnly, linkedAndNamed, confirmedLink] };
  const roots = proposalTree([folder]);
  assert.deepEqual(labels(roots), [
    'Pending review (1)',
    "Linked in the documents (1 · stated by the documents' links, no review needed)",
    'Confirmed (1)',
    'Rejected (0)',
    'Conflicts (0)',
  ]);
  assert.deepEqual(children(roots[0]).flatMap((group) => children(group).map((row) => (row as { relationship: RelationshipView }).relationship.id)), ['l2']);
  assert.equal(pendingCount([folder]), 1, 'only the relationship with a shared name waits for review');
  const row = children(roots[1])[0] as Extract<ProposalNode, { kind: 'proposal' }>;
  assert.equal(row.contextValue, 'relata.proposal.pending', 'a person may still confirm or reject it');
});

test('every type the Proposals view names (groups, rows of mixed sections, the filter) reads in the words of shared/wording.ts, not as an identifier', () => {
  const roots = proposalTree([{ folder: 'file:///demo', name: 'demo', relationships: [relationship('r1', 'same_entity_as', 0.5), relationship('r2', 'occurred_before', 0.4, 'confirmed')] }]);
  assert.equal(children(roots[0])[0]!.label, 'same thing');
  const confirmed = children(roots[1])[0]!;
  assert.ok(confirmed.kind === 'proposal');
  assert.equal(confirmed.description.split(' · ')[0], 'happened before 0.40');
  assert.match(confirmed.tooltip, /^A r2 happened before b\/r2\.md · /);
  assert.equal(describeFilter({ types: ['possibly_explains', 'derived_from'], statuses: null, minStrength: 0 }), 'may explain, derived from');
});

test('an untitled item\u2019s file name is cut in its middle, keeping its topic and the date or version at its end; the tooltip has the full paths', () => {
  const report = { item_id: 'r', path: 'reports/inspection-report-2025-03-14.md', title: null };
  const visit = { item_id: 'v', path: 'visits/site-visit.md', title: null };
  assert.equal(pairLabel(report, visit, 11), 'inspe…03-14 ↔ site-visit');
  assert.equal(shortenMiddle('budget-memo-final-v2', 11), 'budge…al-v2');
  assert.equal(shortenMiddle('maintenance-log_v3', 11), 'maint…og_v3');
  assert.equal(shortenMiddle('crane-inspection-2025', 11), 'crane…2025', 'no separator is left beside the cut');
  assert.equal(shortenMiddle('short', 11), 'short');
  const [pending] = proposalTree([{ folder: 'file:///demo', name: 'demo', relationships: [{ ...relationship('r1', 'supports', 0.5), from: report, to: visit }] }]);
  const row = children(children(pending)[0])[0]!;
  assert.ok(row.kind === 'proposal');
  assert.equal(row.label, 'inspe…03-14 ↔ site-visit');
  assert.match(row.tooltip, /\nreports\/inspection-report-2025-03-14\.md ↔ visits\/site-visit\.md\n/);
});

test('two file names that differ only where the middle cut falls are told apart by their paths', () => {
  const a = { item_id: 'a', path: 'q1/budget-memo-north-site-v2.md', title: null };
  const b = { item_id: 'b', path: 'q2/budget-memo-south-site-v2.md', title: null };
  const label = pairLabel(a, b, 11);
  const [left, right] = label.split(' ↔ ');
  assert.notEqual(left, right, label);
  assert.equal(label, 'q1/bu…te-v2 ↔ q2/bu…te-v2');
});

test('a unit the server cut says how many there are and ends with a row asking for the next page; the badge counts what the server counted', () => {
  const similar = Array.from({ length: 3 }, (_, n) => relationship(`s${n}`, 'similar_to', 0.5 - n * 0.01));
  const folders: FolderRelationships[] = [
    {
      folder: 'file:///big',
      name: 'big',
      relationships: [...similar, relationship('c1', 'contradicts', 0.6), relationship('k1', 'mentions', 0.4, 'confirmed')],
      unitTotals: { 'pending:similar_to': 1_234, 'pending:contradicts': 1, conflicts: 1, confirmed: 250 },
      awaitingReview: 1_235,
    },
  ];
  const roots = proposalTree(folders);
  assert.deepEqual(labels(roots), ['Pending review (4 of 1,235)', 'Confirmed (1 of 250)', 'Rejected (0)', 'Conflicts (1)']);
  const [contradictions, similarGroup] = children(roots[0]);
  assert.equal(contradictions!.label, 'contradicts');
  assert.equal(similarGroup?.kind === 'group' && similarGroup.description, '3 of 1,234');
  const more = children(similarGroup).at(-1)!;
  assert.deepEqual(
    more.kind === 'more' && [more.label, more.description, more.unit, more.shown],
    ['Show 200 more', '1,231 not shown yet', 'pending:similar_to', 3],
  );
  assert.deepEqual(children(roots[1]).map((node) => node.kind), ['proposal', 'more']);
  assert.equal(pendingCount(folders), 1_235);
  // A unit sent whole has no such row.
  assert.ok(!children(children(roots[0])[0]).some((node) => node.kind === 'more'));
});
