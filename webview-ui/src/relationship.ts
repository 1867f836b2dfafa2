// The relationship panel: the two items, the type, the score with its version, then the decision
// near the top, where it is in sight without scrolling: Confirm / Reject with an optional note
// while the relationship awaits review; once decided, the decision (who, when, note) with "Undo /
// change decision", which records a new decision (the history keeps the earlier one). Below, the
// evidence: the signals table whose contributions add up to the score on screen (each row a
// labelled card in a narrow column, webview.css) and the conflicting claims with both figures and
// both sources. The panel is reused for the next relationship opened: it starts at the top.

import { changeDecision, changeHeadline } from '../../shared/decisionChange.ts';
import { localDateText } from '../../shared/decisionDate.ts';
import type { RelationshipDetail } from '../../shared/protocol.ts';
import type { ItemRef } from '../../shared/types.ts';
import { action, figure, h, render } from './dom.ts';
import { onHostMessage, send } from './host.ts';
import { pairVerb, relationshipHeading, signalCells } from './relationshipWords.ts';

/** Decision dates in the person's locale (the webview's language follows VS Code's display language). */
const dateText = localDateText(navigator.language);

const REVIEW = {
  pending: 'suggested by analysis, not yet reviewed',
  confirmed: 'confirmed by a person',
  rejected: 'rejected by a person',
} as const;

function itemLink(folder: string, ref: ItemRef): HTMLElement {
  return h('span', { class: 'item' }, action(ref.title ?? ref.path, () => send({ kind: 'open', folder, path: ref.path })), h('span', { class: 'muted' }, ` ${ref.path}`));
}

const SIGNAL_COLUMNS = ['Signal', 'Value', 'Strength', 'Weight', 'Repeat factor', 'Contribution', 'Detail'] as const;

function signalsTable(detail: RelationshipDetail): HTMLElement {
  const { relationship, contributions, uncappedTotal } = detail;
  // Each cell carries its column's name, which a narrow column shows beside the value (webview.css).
  const cell = (column: (typeof SIGNAL_COLUMNS)[number], text: string, numeric = false) => h('td', { 'data-column': column, ...(numeric ? { class: 'num' } : {}) }, text);
  const rows = relationship.signals.map((signal, index) => {
    const share = contributions[index]!;
    const words = signalCells(signal);
    return h(
      'tr',
      {},
      cell('Signal', words.name),
      cell('Value', words.value),
      cell('Strength', figure(signal.strength), true),
      cell('Weight', figure(signal.weight), true),
      cell('Repeat factor', `× ${figure(share.factor)}`, true),
      cell('Contribution', figure(share.contribution, 3), true),
      cell('Detail', signal.detail),
    );
  });
  const capped = Math.min(1, Math.max(0, uncappedTotal));
  return h(
    'table',
    { class: 'signals' },
    h('thead', {}, h('tr', {}, ...SIGNAL_COLUMNS.map((title) => h('th', {}, title)))),
    h('tbody', {}, ...rows),
    h(
      'tfoot',
      {},
      h('tr', {}, h('td', { colspan: '5' }, 'Sum of contributions'), h('td', { class: 'num' }, figure(uncappedTotal, 3)), h('td', {}, '')),
      h(
        'tr',
        {},
        h('td', { colspan: '5' }, 'Score = min(1, max(0, sum))'),
        h('td', { class: 'num strong' }, figure(capped)),
        h('td', {}, relationship.score_version),
      ),
    ),
  );
}

function conflicts(detail: RelationshipDetail): HTMLElement | null {
  if (detail.conflicts.length === 0) return null;
  return h(
    'section',
    {},
    h('h2', {}, 'Conflicts'),
    ...detail.conflicts.map((conflict) =>
      h(
        'div',
        { class: 'conflict' },
        h('p', {}, conflict.detail),
        h(
          'table',
          { class: 'sides' },
          h('thead', {}, h('tr', {}, h('th', {}, 'Source'), h('th', {}, `${conflict.attribute} of ${conflict.subject}`), h('th', {}, 'Where it says so'))),
          h('tbody', {}, ...conflict.sides.map((side) => h('tr', {}, h('td', {}, itemLink(detail.folder, side.item)), h('td', { class: 'num strong' }, side.value), h('td', {}, h('q', {}, side.text))))),
        ),
      ),
    ),
  );
}

/** A decision the evidence has moved away from: who decided what, and what changed since. */
function changedSinceDecision(detail: RelationshipDetail): HTMLElement | null {
  const change = detail.relationship.changed_since_decision;
  if (!change) return null;
  const headline = change.decision === 'confirmed' ? 'Back in review: ' : 'Still rejected, but ';
  return h(
    'section',
    { class: 'notice' },
    h('p', {}, h('strong', {}, `${headline}${changeHeadline(change)}`), ` (${changeDecision(change, dateText)})`),
    h('ul', {}, ...change.changes.map((line) => h('li', {}, line))),
  );
}

const OPPOSITE = { confirmed: { kind: 'reject', label: 'Reject instead' }, rejected: { kind: 'confirm', label: 'Confirm instead' } } as const;

function decisionForm(detail: RelationshipDetail): HTMLElement {
  const { relationship, folder } = detail;
  const note = h('textarea', { rows: '2', placeholder: 'Note (optional): why you decided this', 'aria-label': 'Note' });
  const decide = (kind: 'confirm' | 'reject') => () => send({ kind, folder, id: relationship.id, ...(note.value.trim() ? { note: note.value.trim() } : {}) });
  const status = relationship.status;
  if (status === 'pending') {
    return h(
      'section',
      { class: 'decision' },
      h('h2', {}, 'Your decision'),
      note,
      h('div', { class: 'buttons' }, action('Confirm', decide('confirm'), 'primary'), action('Reject', decide('reject'), 'secondary')),
    );
  }
  // Decided: the decision is what the panel shows; changing it is a deliberate second step.
  const when = relationship.decided_at ? ` on ${dateText(relationship.decided_at)}` : '';
  const opposite = OPPOSITE[status];
  const change = h(
    'div',
    { class: 'change', hidden: '' },
    h('p', { class: 'muted' }, 'A change is recorded as a new decision; the earlier one stays in the history.'),
    note,
    h(
      'div',
      { class: 'buttons' },
      action(opposite.label, decide(opposite.kind), 'primary'),
      action(`Keep it ${status}`, () => {
        change.hidden = true;
        undo.hidden = false;
      }, 'secondary'),
    ),
  );
  const undo = action('Undo / change decision', () => {
    undo.hidden = true;
    change.hidden = false;
    note.focus();
  }, 'primary');
  return h(
    'section',
    { class: 'decision' },
    h('h2', {}, 'Your decision'),
    h(
      'p',
      {},
      h('strong', { class: `decided ${status}` }, status === 'confirmed' ? 'Confirmed' : 'Rejected'),
      ` by ${relationship.decided_by ?? 'someone'}${when}`,
      relationship.note ? h('span', {}, ': ', h('q', {}, relationship.note)) : null,
    ),
    h('div', { class: 'buttons' }, undo),
    change,
  );
}

/** The relationship shown last: a different one (the panel reused) starts at the top. */
let shownId: string | null = null;

function show(detail: RelationshipDetail): void {
  const { relationship, folder } = detail;
  const another = shownId !== relationship.id;
  shownId = relationship.id;
  render(
    h('h1', {}, relationshipHeading(relationship.type)),
    h('p', { class: 'pair' }, itemLink(folder, relationship.from), h('span', { class: 'muted' }, ` ${pairVerb(relationship.type)} `), itemLink(folder, relationship.to)),
    h(
      'p',
      {},
      h('strong', {}, `Strength ${figure(relationship.score)}`),
      ` (${relationship.score_version}) · ${REVIEW[relationship.status]}`,
      relationship.near_duplicate ? ' · near-duplicate (flagged, never merged)' : '',
    ),
    changedSinceDecision(detail),
    decisionForm(detail),
    h('h2', {}, 'Signals'),
    h('p', { class: 'muted' }, 'A heuristic strength of evidence, not a probability. Each signal contributes strength × weight × its repeat factor.'),
    signalsTable(detail),
    conflicts(detail),
  );
  if (another) window.scrollTo(0, 0);
}

onHostMessage((message) => {
  if (message.kind === 'relationship') show(message.detail);
  else if (message.kind === 'error') render(h('p', { class: 'error' }, message.message));
});
