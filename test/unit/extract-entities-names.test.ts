import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractEntities } from '../../server/src/extract/entities/index.ts';
import { isbn13 } from '../../server/src/extract/entities/identifiers.ts';
import { documentContext, extractionOf } from '../../server/src/pipeline/stages/extract.ts';

const of = (text: string, type: string, context = {}) => extractEntities(text, context).filter((e) => e.type === type).map((e) => [e.surface, e.key]);

test('a Git remote, a URL and a code block hold no e-mail address', () => {
  const text = 'Run git clone git@github.com:org/repo.git, or ssh://git@example.com/org/repo.git, see https://user@example.org/x.\nWrite to anna@example.com.';
  assert.deepEqual(of(text, 'email'), [['anna@example.com', 'email:anna@example.com']]);
  assert.deepEqual(of(text, 'url').map(([, key]) => key), ['url:github.com/org/repo', 'url:example.com/org/repo', 'url:example.org/x']);
  const shell = 'Configure it:\n\ngit config user.email bob@example.com\n\nThen commit.';
  const start = shell.indexOf('git config');
  assert.deepEqual(of(shell, 'email', { code: [[start, shell.indexOf('\n\nThen')]] }), [], 'an address inside a code block is code');
  assert.equal(of(shell, 'email').length, 1, 'the same line in prose is an address');
});

test('nothing inside a URL is another entity', () => {
  const entities = extractEntities('See https://example.com/reports/IR-2026-031/2025-05-16/RFC9110 for details.');
  assert.deepEqual(entities.map((e) => e.type), ['url']);
});

test('one resource, one URL key however it is written', () => {
  const keys = ['https://github.com/org/repo', 'https://www.github.com/org/repo/', 'git@github.com:org/repo.git', 'http://github.com/org/repo#readme'].map((u) => of(`at ${u} today`, 'url')[0]?.[1]);
  assert.deepEqual(new Set(keys), new Set(['url:github.com/org/repo']));
});

test('bare domains, but not file names', () => {
  assert.deepEqual(of('Publish to crates.io, read docs on github.com, edit main.rs and README.md.', 'domain').map(([s]) => s), ['crates.io', 'github.com']);
});

test('identifiers: standards, tickets, codes and references, one key per spelling', () => {
  const text = 'RFC 9110, RFC9110, ISO/IEC 27001:2022, ISO 27001, PEP 8, CVE-2024-12345, doi:10.1000/xyz123, ticket IR-2026-031, crane GC-2, ABC-123, TDP-43, APOE4, ISBN 0-306-40615-2 and ISBN 978-0-306-40615-7.';
  const found = of(text, 'identifier');
  assert.deepEqual(found.map(([s]) => s), ['RFC 9110', 'RFC9110', 'ISO/IEC 27001:2022', 'ISO 27001', 'PEP 8', 'CVE-2024-12345', 'doi:10.1000/xyz123', 'IR-2026-031', 'GC-2', 'ABC-123', 'TDP-43', 'APOE4', 'ISBN 0-306-40615-2', 'ISBN 978-0-306-40615-7']);
  const keys = found.map(([, k]) => k);
  assert.equal(keys[0], keys[1]);
  assert.equal(keys[2], keys[3]);
  assert.equal(keys[12], keys[13], 'ISBN-10 and ISBN-13 of one book share a key');
});

test('not identifiers: versions, dates, times, quarters, sections, listings, units, formulas, wrong ISBNs', () => {
  const text = 'Version v1.2.3 and Rust 1.75 on 2025-05-16 at 10:30 UTC-5 in Q3-2024, FY2025; see Section 3, Listing 8-1, a rate of 5 mL/min, CO2 levels, a well-known fact, ISBN 978-0-306-40615-8, paid USD 1,200.';
  assert.deepEqual(of(text, 'identifier'), []);
  assert.equal(isbn13('0-306-40615-3'), null);
});

test('names written as code: snake_case and paths, not in a code block', () => {
  const text = 'The rustc_middle crate exposes std::collections::HashMap; a_b is a subscript and my_file.txt a file.';
  assert.deepEqual(of(text, 'code').map(([s]) => s), ['rustc_middle', 'std::collections::HashMap']);
  assert.deepEqual(of(text, 'code', { code: [[0, text.length]] }), []);
});

test('product and tool names are written in mixed case; capitals alone, sentence-initial and heading words are not names', () => {
  const text = 'We build it with Cargo and CocoaPods, and ask on Stack Overflow.\nHowever, the build is slow. Open the file in JavaScript Studio.\nFinally, it works on iOS.\n\nGetting Started With CocoaPods\n\nSee Listing 8-1 and the “Comparing the Guess to the Secret Number” section, written in English on Monday.';
  assert.deepEqual(of(text, 'product').map(([s]) => s), ['CocoaPods', 'JavaScript Studio', 'iOS']);
});

test('a contract\'s defined terms are not product names', () => {
  const text = 'This Agreement takes effect on the Effective Date. The Company shall keep the Confidential Information secret until Termination.';
  assert.deepEqual(of(text, 'product'), []);
});

test('a run ending in a role or a part of an organisation is not a product name', () => {
  const text = 'Send it to the GitHub Team and copy the DevOps Engineer; the build uses JavaScript.';
  assert.deepEqual(of(text, 'product').map(([s]) => s), ['JavaScript']);
});

test('a full name with a known first name is a person, keyed like the honorific rule', () => {
  assert.deepEqual(of('The review was written by Carla Mendes last week.', 'person'), [['Carla Mendes', 'person:carla mendes']]);
  assert.equal(of('Dr. Carla Mendes agreed.', 'person')[0]![1], 'person:carla mendes');
  assert.deepEqual(of('We walked through the Rose Garden.', 'person'), [], 'a common noun is no surname');
});

test('the author field makes a name a person, and code blocks are read from the parsed document', () => {
  const document = {
    blocks: [
      { kind: 'paragraph' as const, text: 'Notes by Kwame Asante on the rollout.', headingPath: [], location: { kind: 'lines' as const, start: 1, end: 1 } },
      { kind: 'code' as const, text: 'git clone git@github.com:org/repo.git\nmail ops@example.com', headingPath: [], location: { kind: 'lines' as const, start: 3, end: 4 } },
    ],
    metadata: { entries: [{ key: 'author', label: 'author', value: 'kwame asante', text: 'Kwame Asante' }], note: null },
  };
  const text = document.blocks.map((b) => b.text).join('\n\n');
  const extraction = extractionOf('Rollout', [{ id: 'c1', text, headingPath: [] }], [], undefined, documentContext(document));
  const kinds = extraction.entities.map((e) => [e.type, e.surface]);
  assert.ok(kinds.some(([t, s]) => t === 'person' && s === 'Kwame Asante'), JSON.stringify(kinds));
  assert.ok(!kinds.some(([t]) => t === 'email'), 'no address inside the code block');
});
