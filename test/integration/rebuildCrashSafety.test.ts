// A rebuild cannot lose a decision: the real `relata index --rebuild` is SIGKILLed at seeded random
// moments across its run (from before it has read anything to after it has finished), and after
// every kill the live store still holds every confirmed and rejected relationship, its note and its
// history, and every alias decision, record by record; the next `relata index` (or `--rebuild`)
// settles what the kill left and keeps them all. The three states a kill can leave (a partial
// store beside the live one, a finished one whose swap had not begun, a swap half done) are also
// made on purpose, since a kill lands in the few milliseconds of a swap only by chance.
// Runs the built CLI (npm test builds it first).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openStore } from '../../server/src/store/index.ts';
import { seededRandom, writeCorpus } from '../support/generateCorpus.ts';
import { runAndKill } from '../support/killMidRun.ts';
import { copyStore } from '../support/storeDamage.ts';
import { REPO_ROOT, tempDir } from '../support/tempFolder.ts';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const DEMO = path.join(REPO_ROOT, 'docs', 'demo');
const WORKSPACE = 'rebuild-crash';
const skip = existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first';
const ENV = { ...process.env, RELATA_WORKSPACE: WORKSPACE };
/** Kill points as fractions of an uninterrupted rebuild's time, after a very early one; the last lands after it finished. */
const RANDOM_KILLS = 5;

function relata(args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: ENV });
}

function json(args: string[]) {
  const result = relata([...args, '--json']);
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

interface Decisions {
  /** By the pair's two paths: the decision, its note and its whole history as it was. */
  relationships: Map<string, { status: string; decidedBy: string | null; note: string | null; history: string[] }>;
  /** By the pair of names: the alias decision and its note. */
  aliases: Map<string, { status: string; decidedBy: string | null; note: string | null }>;
}

/** Every decision of the live store, read the way any command reads it. */
async function decisionsIn(dataDir: string): Promise<Decisions> {
  const store = openStore({ dataDir, workspace: WORKSPACE, access: 'read' });
  try {
    const relationships: Decisions['relationships'] = new Map();
    for (const record of await store.listRelationships()) {
      if (record.status === 'pending') continue;
      const [from, to] = [await store.getItem(record.fromItemId), await store.getItem(record.toItemId)];
      const history = (await store.relationshipHistory(record.id)).map((event) => JSON.stringify([event.at, event.kind, event.actor, event.note]));
      relationships.set([from!.path, to!.path].sort().join(' ↔ '), { status: record.status, decidedBy: record.decidedBy, note: record.note, history });
    }
    const aliases: Decisions['aliases'] = new Map();
    for (const alias of await store.listAliases()) {
      if (alias.status === 'pending') continue;
      aliases.set(`${alias.a.key} = ${alias.b.key}`, { status: alias.status, decidedBy: alias.decided_by, note: alias.note });
    }
    return { relationships, aliases };
  } finally {
    await store.close();
  }
}

/** Each decision of `expected` is in `actual` as it was, and each of its history entries too (a rebuild may add entries after them). */
function assertEveryDecisionKept(actual: Decisions, expected: Decisions, when: string): void {
  for (const [pair, decision] of expected.relationships) {
    const now = actual.relationships.get(pair);
    assert.ok(now, `${when}: the ${decision.status} relationship ${pair} is in the store`);
    assert.deepEqual([now.status, now.decidedBy, now.note], [decision.status, decision.decidedBy, decision.note], `${when}: ${pair}`);
    for (const entry of decision.history) assert.ok(now.history.includes(entry), `${when}: ${pair} keeps its history entry ${entry}`);
  }
  for (const [names, decision] of expected.aliases) {
    assert.deepEqual(actual.aliases.get(names), decision, `${when}: the ${decision.status} alias ${names}`);
  }
}

const rebuildLeftovers = (dataDir: string) => readdirSync(dataDir).filter((name) => /^relata\.sqlite\.(rebuilding|rebuilt-)/.test(name));

/** Starts a rebuild and SIGKILLs it after `delayMs`; resolves with whether it was still running. */
const rebuildAndKill = (folder: string, dataDir: string, delayMs: number): Promise<boolean> =>
  runAndKill([CLI, 'index', folder, '--data', dataDir, '--embedding-model', 'none', '--rebuild'], delayMs, ENV);

// The demo folder (without its deliberately broken file, so that every run exits 0) and 60
// generated documents, indexed once, with three confirmations and three rejections (each with a
// note, by two people) and a confirmed and a rejected alias; every test copies the store.
let scratch = '';
let folder = '';
let decided = '';
let original: Decisions;

before(async () => {
  if (skip) return;
  scratch = mkdtempSync(path.join(tmpdir(), 'relata-rebuild-crash-'));
  folder = path.join(scratch, 'folder');
  cpSync(DEMO, folder, { recursive: true });
  rmSync(path.join(folder, 'broken-export.json'));
  writeCorpus(path.join(folder, 'corpus'), 60, 7);
  decided = path.join(scratch, 'decided');
  json(['index', folder, '--data', decided, '--embedding-model', 'none']);
  const proposed = json(['relationships', '--data', decided]) as { id: string }[];
  assert.ok(proposed.length >= 6, `six relationships to decide (found ${proposed.length})`);
  for (const [n, view] of proposed.slice(0, 3).entries()) json(['confirm', view.id, '--data', decided, '--by', 'ana', '--note', `checked ${n}`]);
  for (const [n, view] of proposed.slice(3, 6).entries()) json(['reject', view.id, '--data', decided, '--by', 'bo', '--note', `not related ${n}`]);
  const aliases = json(['aliases', '--data', decided]) as { id: string }[];
  assert.ok(aliases.length >= 2, 'two aliases to decide');
  json(['confirm-alias', aliases[0]!.id, '--data', decided, '--by', 'ana', '--note', 'same person']);
  json(['reject-alias', aliases[1]!.id, '--data', decided, '--by', 'bo', '--note', 'another person']);
  original = await decisionsIn(decided);
  assert.equal(original.relationships.size, 6);
  assert.equal(original.aliases.size, 2);
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('a rebuild SIGKILLed at random moments never loses a decision, a note or a history entry', { skip, timeout: 20 * 60_000 }, async (t) => {
  const root = tempDir(t);
  const reference = copyStore(decided, path.join(root, 'reference'));
  const started = performance.now();
  json(['index', folder, '--data', reference, '--embedding-model', 'none', '--rebuild']);
  const fullRunMs = performance.now() - started;
  assertEveryDecisionKept(await decisionsIn(reference), original, 'after an uninterrupted rebuild');

  const seed = Number(process.env.RELATA_CRASH_SEED ?? Date.now() % 100_000);
  const random = seededRandom(seed);
  const delays = [30, ...Array.from({ length: RANDOM_KILLS }, () => (0.05 + random() * 0.95) * fullRunMs), 1.2 * fullRunMs];
  const crashed = copyStore(decided, path.join(root, 'crashed'));
  const outcomes: string[] = [];
  for (const [n, delay] of delays.entries()) {
    const killedMidRun = await rebuildAndKill(folder, crashed, delay);
    const left = rebuildLeftovers(crashed);
    outcomes.push(`${Math.round(delay)} ms: ${killedMidRun ? 'killed' : 'finished'}${left.length ? ` leaving ${left.join(', ')}` : ''}`);
    t.diagnostic(`seed ${seed}, kill ${n + 1}: ${outcomes.at(-1)}`);
    if (left.some((name) => name.startsWith('relata.sqlite.rebuilding'))) {
      // Whatever the kill left is named by check (exit 1) and status before anything settles it.
      const check = relata(['check', '--data', crashed, '--no-blobs']);
      assert.equal(check.status, 1, check.stdout);
      assert.match(check.stdout, /relata\.sqlite\.rebuilding is the partial result of a rebuild that did not finish/);
      assert.match(relata(['status', '--data', crashed]).stdout, /interrupted rebuild: relata\.sqlite\.rebuilding/);
    }
    // The live store holds every decision the moment the rebuild is gone, before any command settles anything.
    assertEveryDecisionKept(await decisionsIn(crashed), original, `right after the kill at ${Math.round(delay)} ms`);
    // Then a plain run, or another rebuild, alternately: each settles what was left and keeps every decision.
    const next = n % 2 === 0 ? ['index', folder, '--data', crashed, '--embedding-model', 'none'] : ['index', folder, '--data', crashed, '--embedding-model', 'none', '--rebuild'];
    const run = relata(next);
    assert.equal(run.status, 0, run.stderr);
    if (left.length > 0) assert.match(run.stderr, /relata: (removed|finished an interrupted rebuild)/, 'the run says what it settled');
    assert.deepEqual(rebuildLeftovers(crashed), [], 'nothing of an interrupted rebuild is left');
    assertEveryDecisionKept(await decisionsIn(crashed), original, `after ${next.includes('--rebuild') ? 'a rebuild' : 'a run'} following the kill at ${Math.round(delay)} ms`);
    assert.equal(relata(['check', '--data', crashed, '--no-blobs']).status, 0);
  }
  t.diagnostic(`seed ${seed}; uninterrupted rebuild ${Math.round(fullRunMs)} ms`);
  assert.ok(outcomes.filter((outcome) => outcome.includes('killed')).length >= 1, 'at least one kill landed while the rebuild was working');
});

test('a partial store beside the live one is named by check and status, and removed by the next index with every decision kept', { skip, timeout: 5 * 60_000 }, async (t) => {
  const root = tempDir(t);
  const data = copyStore(decided, path.join(root, 'data'));
  // Any store that is not the live one stands for a rebuild's partial result: here a fresh, empty one.
  const empty = path.join(root, 'empty');
  await openStore({ dataDir: empty, workspace: WORKSPACE }).close();
  cpSync(path.join(empty, 'relata.sqlite'), path.join(data, 'relata.sqlite.rebuilding'));

  const check = relata(['check', '--data', data]);
  assert.equal(check.status, 1, check.stdout);
  assert.match(check.stdout, /rebuild +relata\.sqlite\.rebuilding: relata\.sqlite\.rebuilding is the partial result of a rebuild that did not finish: it never replaced relata\.sqlite, which keeps every decision/);
  assert.match(check.stdout, new RegExp(`relata index ${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} --data \\S+\` settles what an interrupted rebuild left`));
  const status = relata(['status', '--data', data]);
  assert.match(status.stdout, /interrupted rebuild: relata\.sqlite\.rebuilding is the partial result/);
  assert.deepEqual(JSON.parse(relata(['status', '--data', data, '--json']).stdout).store.rebuild_leftovers.length, 1);
  // A reader leaves it for a writer.
  assert.deepEqual(rebuildLeftovers(data), ['relata.sqlite.rebuilding']);

  const run = relata(['index', folder, '--data', data, '--embedding-model', 'none']);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(
    run.stderr.split('\n').filter((line) => line.startsWith('relata: removed')).join('\n'),
    'relata: removed relata.sqlite.rebuilding, the partial store of a rebuild that was interrupted; the store it was to replace is unchanged and keeps every decision',
  );
  assert.deepEqual(rebuildLeftovers(data), []);
  assertEveryDecisionKept(await decisionsIn(data), original, 'after the run');
  assert.equal(relata(['check', '--data', data, '--no-blobs']).status, 0);
});

test('a finished rebuild whose swap had not begun is removed: decisions made in the live store since stay', { skip, timeout: 5 * 60_000 }, async (t) => {
  const root = tempDir(t);
  const rebuilt = copyStore(decided, path.join(root, 'rebuilt'));
  json(['index', folder, '--data', rebuilt, '--embedding-model', 'none', '--rebuild']);
  const data = copyStore(decided, path.join(root, 'data'));
  // The live store holds a decision the rebuilt one lacks (made where the rebuild could not see it).
  const pending = (json(['relationships', '--data', data, '--status', 'pending']) as { id: string }[])[0]!;
  json(['confirm', pending.id, '--data', data, '--by', 'cy', '--note', 'decided after the rebuild read the store']);
  const expected = await decisionsIn(data);
  assert.equal(expected.relationships.size, 7);
  cpSync(path.join(rebuilt, 'relata.sqlite'), path.join(data, 'relata.sqlite.rebuilt-20990101T000000Z'));

  assert.match(relata(['status', '--data', data]).stdout, /interrupted rebuild: relata\.sqlite\.rebuilt-20990101T000000Z is a rebuilt store whose rebuild was interrupted before it replaced relata\.sqlite/);
  const run = relata(['index', folder, '--data', data, '--embedding-model', 'none']);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, /relata: removed relata\.sqlite\.rebuilt-20990101T000000Z, a rebuilt store whose rebuild was interrupted before it replaced the store/);
  assert.deepEqual(rebuildLeftovers(data), []);
  assertEveryDecisionKept(await decisionsIn(data), expected, 'after the run');
});

test('a swap killed after the old file was set aside is finished by the next command, even one that only reads', { skip, timeout: 5 * 60_000 }, async (t) => {
  const root = tempDir(t);
  const rebuilt = copyStore(decided, path.join(root, 'rebuilt'));
  json(['index', folder, '--data', rebuilt, '--embedding-model', 'none', '--rebuild']);
  const data = copyStore(decided, path.join(root, 'data'));
  const stamp = '20990101T000000Z';
  // The state between the swap's renames: the old file under its kept name, the rebuilt one not yet live.
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(path.join(data, `relata.sqlite${suffix}`))) renameSync(path.join(data, `relata.sqlite${suffix}`), path.join(data, `relata.sqlite.before-rebuild-${stamp}${suffix}`));
  }
  cpSync(path.join(rebuilt, 'relata.sqlite'), path.join(data, `relata.sqlite.rebuilt-${stamp}`));

  const status = relata(['status', '--data', data]);
  assert.equal(status.status, 0, status.stderr);
  assert.match(status.stderr, new RegExp(`relata: finished an interrupted rebuild: relata\\.sqlite\\.rebuilt-${stamp} is now the store, the old one is kept as relata\\.sqlite\\.before-rebuild-${stamp}`));
  assert.deepEqual(rebuildLeftovers(data), []);
  assert.ok(existsSync(path.join(data, `relata.sqlite.before-rebuild-${stamp}`)), 'the old file is kept');
  assertEveryDecisionKept(await decisionsIn(data), original, 'after the swap was finished');
  assert.equal(relata(['check', '--data', data, '--no-blobs']).status, 0);
});
