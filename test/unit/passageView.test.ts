// What the Ask panel quotes of a source: the sentences holding the question's words or figures,
// highlighted, with a sentence of context either side and the rest left out; the words and
// figures marked within them.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { passageView, sentencesOf, type QuotedSentence } from '../../shared/passageView.ts';

const REPORT = [
  '# Gantry crane GC-2 refurbishment: completion report',
  'Prepared by Mr. Tomasz Wieczorek on 23 May 2025. Gantry crane GC-2 serves the heavy-goods lane in Bay 4.',
  'It is a 10-tonne double-girder crane installed in 2009. The thorough examination in November 2024 found wear on the rail.',
  'The work was awarded to Example Ltd after a competitive quote. The final cost of the refurbishment was EUR 42,000. The crane returned to service on 19 May.',
  'The canteen was repainted in June. Staff parking moved to the north gate. Visitors sign in at reception.',
].join('\n');

const sentences = (parts: ReturnType<typeof passageView>) => parts.filter((part): part is QuotedSentence => part.kind === 'sentence');

test('a passage is read as sentences: at sentence ends and at line breaks', () => {
  assert.deepEqual(sentencesOf('One thing. Two things!\nA heading\nThree: 4.5 tonnes? Yes, Mr. Okafor.'), ['One thing.', 'Two things!', 'A heading', 'Three: 4.5 tonnes?', 'Yes, Mr. Okafor.']);
});

test('the sentence giving the figure asked about is highlighted, with its words and figure marked', () => {
  const parts = passageView(REPORT, 'What did the GC-2 refurbishment by Example Ltd cost?');
  const cost = sentences(parts).find((part) => part.text.startsWith('The final cost'));
  assert.ok(cost?.highlighted);
  assert.deepEqual(cost.marks.map((mark) => cost.text.slice(mark.start, mark.end)), ['cost', 'refurbishment', 'EUR 42,000']);
});

test('sentences far from what was asked are left out, with a gap where they were', () => {
  const parts = passageView(REPORT, 'What did the GC-2 refurbishment by Example Ltd cost?');
  const shown = sentences(parts).map((part) => part.text);
  assert.ok(!shown.includes('Visitors sign in at reception.'), shown.join(' | '));
  assert.ok(!shown.includes('Staff parking moved to the north gate.'), shown.join(' | '));
  assert.equal(parts.at(-1)?.kind, 'gap');
  // The sentence after a highlighted one is kept as context, unhighlighted.
  const context = sentences(parts).find((part) => part.text === 'The crane returned to service on 19 May.');
  assert.equal(context?.highlighted, false);
  assert.deepEqual(context?.marks, []);
});

test('a number typed in the question highlights the sentence that states it', () => {
  const parts = passageView(REPORT, '2009');
  assert.deepEqual(sentences(parts).filter((part) => part.highlighted).map((part) => part.text), ['It is a 10-tonne double-girder crane installed in 2009.']);
});

test('when no sentence holds the question\'s words, the opening is quoted, not the whole passage', () => {
  const parts = passageView(REPORT, 'zebra migration');
  assert.equal(sentences(parts).length, 3);
  assert.ok(sentences(parts).every((part) => !part.highlighted));
  assert.deepEqual(parts.at(-1), { kind: 'gap' });
});

test('when no sentence holds two of the question\'s words, the sentences holding its rarest word in the passage answer', () => {
  const passage = [
    'Set boundaries for contributors early.',
    'Most contributors mean well and want to help.',
    'Be firm about shutting down toxic behavior when you see it.',
    'Thank contributors for their work.',
  ].join(' ');
  const highlighted = sentences(passageView(passage, 'How do I handle toxic contributors?')).filter((part) => part.highlighted);
  assert.deepEqual(
    highlighted.map((part) => part.text),
    ['Be firm about shutting down toxic behavior when you see it.'],
    '"toxic" is in one sentence, "contributors" in three',
  );
});
