// The command line a person can use without the manual, run as a user runs it (the built
// dist/cli.js on the demo folder, indexed by the real pipeline into a real SQLite store): a
// mistake is one line with the name meant and where help is; `relata relationships` gives one
// line per signal that counted and each explanation once (--explain: all of it), and a copy's link
// to its original as a copy, never as a proposal to review; `relata search` counts its weak
// matches in one line.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { RelationshipView, SearchResponse } from '../../shared/types.ts';
import { WEAK_RELEVANCE } from '../../server/src/cli/searchText.ts';
import { scoreSignals } from '../../server/src/scoring/index.ts';
import { REPO_ROOT } from '../support/tempFolder.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const DEMO = path.join(REPO_ROOT, 'docs', 'demo');
const needsBuild = existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first';
const COPY = 'shared-drive/incidents-backup/incident-2025-03-14-forklift-collision.md';
const ORIGINAL = 'incidents/incident-2025-03-14-forklift-collision.md';

function relata(args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, RELATA_WORKSPACE: 'cli-usability' } });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

let data = '';
before(() => {
  if (needsBuild) return;
  data = mkdtempSync(path.join(tmpdir(), 'relata-cli-usability-'));
  const indexed = relata(['index', DEMO, '--data', data, '--embedding-model', 'none', '--json']);
  assert.equal(indexed.code, 0, indexed.stderr);
});
after(() => {
  if (data) rmSync(data, { recursive: true, force: true });
});

test('a misspelt option is one line naming the option meant and where help is, with no help text after it', { skip: needsBuild }, () => {
  const run = relata(['search', 'crane', '--limt', '3', '--data', data]);
  assert.equal(run.code, 2);
  assert.equal(run.stderr, 'relata search: unknown option --limt; did you mean --limit? (relata search --help)\n');
  assert.equal(run.stdout, '');
});

test('a misspelt command is one line naming the command meant', { skip: needsBuild }, () => {
  const run = relata(['serach', 'crane']);
  assert.equal(run.code, 2);
  assert.equal(run.stderr, 'relata: unknown command "serach"; did you mean search? (relata --help lists every command)\n');
  const help = relata(['help', 'serach']);
  assert.equal(help.code, 2);
  assert.equal(help.stderr, 'relata help: no command "serach"; did you mean search? (relata --help lists every command)\n');
});

test('an unknown command like no other is one line with where the list is, and no guess', { skip: needsBuild }, () => {
  const run = relata(['frobnicate']);
  assert.equal(run.code, 2);
  assert.equal(run.stderr, 'relata: unknown command "frobnicate" (relata --help lists every command)\n');
});

test('help is printed when asked, on stdout, even beside a mistake', { skip: needsBuild }, () => {
  for (const args of [['search', '--help'], ['search', '--limt', '3', '-h'], ['help', 'search']]) {
    const run = relata(args);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^usage: relata search "<query>"/, args.join(' '));
  }
});

test('every command `relata --help` lists is the one its name loads', { skip: needsBuild }, () => {
  // Commands are loaded by name when they run (cli/main.ts): a name in the table that loaded
  // another command's module would list one command twice and run the wrong one.
  const overview = relata(['--help']);
  assert.equal(overview.code, 0, overview.stderr);
  const listed = [...overview.stdout.matchAll(/^ {2}(\S+) {2,}/gm)].map((match) => match[1]!);
  assert.ok(listed.length >= 20 && listed.includes('search') && listed.includes('serve'), overview.stdout);
  assert.equal(new Set(listed).size, listed.length, `a command listed twice: ${listed.join(', ')}`);
  for (const name of listed) {
    const help = relata(['help', name]);
    assert.equal(help.code, 0, `relata help ${name}: ${help.stderr}`);
    assert.match(help.stdout, new RegExp(`^usage: relata ${name}( |\\n|$)`), `relata help ${name}`);
  }
});

/** The lines of each relationship's block in the text, by id. */
function blocks(text: string): Map<string, string[]> {
  const byId = new Map<string, string[]>();
  for (const block of text.split('\n\n')) {
    const [head, ...rest] = block.split('\n');
    const id = /^(rel_[0-9a-f]+) /.exec(head ?? '')?.[1];
    if (id) byId.set(id, rest);
  }
  return byId;
}

/** A signal's line: its name in words ("shared name", "a language model's opinion"), what it found, strength × weight. */
const SIGNAL_LINE = /^ {2}[a-z][a-z' ]*[a-z] +\S.*: -?\d\.\d\d × /;

test('relationships: one line per signal that counted, each explanation once; --explain gives every signal and sentence', { skip: needsBuild }, () => {
  const views = JSON.parse(relata(['relationships', '--data', data, '--json']).stdout) as RelationshipView[];
  const compact = relata(['relationships', '--data', data]);
  assert.equal(compact.code, 0, compact.stderr);
  const explained = relata(['relationships', '--data', data, '--explain']);
  assert.equal(explained.code, 0, explained.stderr);

  const shortBlocks = blocks(compact.stdout);
  const longBlocks = blocks(explained.stdout);
  let leftOut = 0;
  for (const view of views.filter((candidate) => shortBlocks.has(candidate.id))) {
    const counted = scoreSignals(view.signals).contributions.filter(({ contribution }) => contribution !== 0).length;
    assert.equal(shortBlocks.get(view.id)!.filter((line) => SIGNAL_LINE.test(line)).length, counted, `${view.id}: one line per signal that counted`);
    assert.equal(longBlocks.get(view.id)!.filter((line) => SIGNAL_LINE.test(line)).length, view.signals.length, `${view.id}: --explain shows every signal`);
    leftOut += view.signals.length - counted;
  }
  assert.ok(leftOut > 0, 'the demo has signals worth nothing, which the short text leaves out');
  assert.doesNotMatch(compact.stdout, /= 0\.000\./);

  const sentence = 'Concepts overlap by nature, so this counts for less than a shared name.';
  const times = (text: string) => text.split(sentence).length - 1;
  assert.equal(times(compact.stdout), 1, 'an explanation of a kind of signal is said once');
  assert.ok(times(explained.stdout) > 2, '--explain repeats it on every line, as the detail has it');
  assert.match(compact.stdout, /different figures +cost: 1\.00 × 0\.22 = 0\.220\. The sources give different figures for cost: (51,500 and 42,000|42,000 and 51,500)\./,
    'what a signal found stays on its line');
  assert.ok(compact.stdout.split('\n').length < explained.stdout.split('\n').length);
});

test('relationships: a byte-identical copy is shown as a copy of its original, not as a pending proposal; --json keeps the link whole', { skip: needsBuild }, () => {
  const views = JSON.parse(relata(['relationships', '--data', data, '--json']).stdout) as RelationshipView[];
  const link = views.find((view) => [view.from.path, view.to.path].sort().join('|') === [COPY, ORIGINAL].sort().join('|'));
  assert.ok(link, 'the store keeps the copy link, and --json shows it with every field');
  assert.equal(link.status, 'pending');

  for (const args of [['relationships', '--data', data], ['relationships', '--data', data, '--status', 'pending']]) {
    const text = relata(args).stdout;
    assert.ok(!blocks(text).has(link.id), `${args.join(' ')}: not listed as a proposal`);
    assert.doesNotMatch(text, /DERIVED_FROM/);
    assert.ok(text.includes(`${COPY}: copy of ${ORIGINAL} (${link.id})`), text);
  }
  assert.ok(!relata(['relationships', '--data', data, '--status', 'confirmed']).stdout.includes('copy of'));
});

test('search: results below the relevance floor are one line, --all lists them, --json holds them all', { skip: needsBuild }, () => {
  const search = ['search', 'sprinkler leak', '--data', data, '--embedding-model', 'none', '--no-server'];
  const response = JSON.parse(relata([...search, '--json']).stdout) as SearchResponse;
  const weak = response.results.filter((result) => result.query_relevance < WEAK_RELEVANCE);
  assert.ok(weak.length > 0 && weak.length < response.results.length, 'the demo query has strong and weak results');

  const text = relata(search).stdout;
  assert.ok(text.includes(`${weak.length} more weak match${weak.length === 1 ? '' : 'es'} (relevance < 0.20; --all to list)`), text);
  for (const result of response.results) {
    assert.equal(text.includes(`   ${result.path}`), result.query_relevance >= WEAK_RELEVANCE, result.path);
  }
  assert.doesNotMatch(text, /This version was indexed today/);
  const all = relata([...search, '--all']).stdout;
  for (const result of response.results) assert.ok(all.includes(`   ${result.path}`), result.path);
});
