// npm run bench:cold — `relata search` as a person runs it: a whole new process (Node start, the
// bundle's compile and evaluation, the store opened, the query model loaded in its worker, the
// query embedded, the answer printed), against `relata --help` (Node start and the bundle alone)
// and a lexical-only search (`--embedding-model none`). docs/demo is indexed once, with vectors,
// into a temporary store; then each command runs 10 times, the commands taking turns, after one
// untimed run each (so the operating system's file cache is warm, as it is for a person who has
// run relata before). Prints medians, p90 and the ratios; asserts nothing.
//
//   RELATA_COLD_BASELINE=DIR  also time DIR/cli.js (an earlier build, beside a node_modules that
//                             resolves its packages), interleaved with dist/cli.js, and say whether
//                             its search output is the same

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../support/tempFolder.ts';

const RUNS = 10;
const QUERY = 'GC-2 refurbishment cost';
const env: NodeJS.ProcessEnv = { ...process.env, RELATA_WORKSPACE: 'cold-bench' };
delete env.RELATA_EMBEDDING_MODEL;

interface Build {
  label: string;
  cli: string;
}

const builds: Build[] = [{ label: 'now', cli: path.join(REPO_ROOT, 'dist', 'cli.js') }];
const baseline = process.env.RELATA_COLD_BASELINE;
if (baseline) builds.unshift({ label: 'before', cli: path.join(path.resolve(baseline), 'cli.js') });
for (const build of builds) if (!existsSync(build.cli)) throw new Error(`${build.cli} is missing (npm run build)`);

function run(cli: string, args: string[]): { ms: number; stdout: string } {
  const started = performance.now();
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: REPO_ROOT, env, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`${path.relative(REPO_ROOT, cli)} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms, stdout: result.stdout };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Nearest rank: with 10 runs, the 9th fastest. */
function p90(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(0.9 * sorted.length) - 1]!;
}

const store = mkdtempSync(path.join(tmpdir(), 'relata-cold-'));
try {
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`);
  console.log(`load average at start: ${loadavg().map((load) => load.toFixed(2)).join(' ')}`);
  const indexed = run(builds.at(-1)!.cli, ['index', path.join(REPO_ROOT, 'docs', 'demo'), '--data', store]);
  console.log(`docs/demo indexed with the default model in ${(indexed.ms / 1000).toFixed(1)} s; query "${QUERY}"; ${RUNS} runs each, taking turns\n`);

  const commands: { name: string; args: string[] }[] = [
    { name: 'relata --help', args: ['--help'] },
    { name: 'relata search', args: ['search', QUERY, '--data', store] },
    { name: 'relata search --embedding-model none', args: ['search', QUERY, '--data', store, '--embedding-model', 'none'] },
  ];
  const times = new Map<string, number[]>();
  const outputs = new Map<string, Set<string>>();
  const key = (build: Build, command: { name: string }) => `${build.label}\t${command.name}`;
  for (let round = -1; round < RUNS; round += 1) {
    for (const command of commands) {
      for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
        const { ms, stdout } = run(build.cli, command.args);
        if (round < 0) continue; // the untimed warm-up
        (times.get(key(build, command)) ?? times.set(key(build, command), []).get(key(build, command))!).push(ms);
        (outputs.get(key(build, command)) ?? outputs.set(key(build, command), new Set()).get(key(build, command))!).add(stdout);
      }
    }
  }

  const width = Math.max(...commands.map((command) => command.name.length));
  console.log(`${'build'.padEnd(7)}${'command'.padEnd(width + 2)}${'median'.padStart(9)}${'p90'.padStart(9)}${'min'.padStart(9)}   × --help (medians)`);
  for (const build of builds) {
    const help = median(times.get(key(build, commands[0]!))!);
    for (const command of commands) {
      const values = times.get(key(build, command))!;
      const ms = (value: number) => `${value.toFixed(0)} ms`.padStart(9);
      console.log(`${build.label.padEnd(7)}${command.name.padEnd(width + 2)}${ms(median(values))}${ms(p90(values))}${ms(Math.min(...values))}   ${(median(values) / help).toFixed(2)}`);
    }
  }
  if (builds.length > 1) {
    for (const command of commands.slice(1)) {
      const [before, now] = builds.map((build) => [...outputs.get(key(build, command))!]);
      const same = before!.length === 1 && now!.length === 1 && before![0] === now![0];
      console.log(`${command.name}: the same output from both builds in every run: ${same ? 'yes' : `NO (${before!.length} and ${now!.length} distinct outputs)`}`);
    }
  }
  console.log(`load average at end: ${loadavg().map((load) => load.toFixed(2)).join(' ')}`);
} finally {
  rmSync(store, { recursive: true, force: true });
}
