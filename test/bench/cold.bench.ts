// npm run bench:cold — `relata search` as a person runs it: a whole new process each time, against
// `relata --help` (Node's start and the launcher alone), in two situations:
//   - in-process (`--no-server`): Node's start, the bundle's compile and evaluation, the store
//     opened, the query model loaded in its worker, the query embedded, the answer printed;
//   - with the language server running for the folder (as VS Code runs it, `relata serve --stdio`
//     on a copy of docs/demo, indexed and idle, its query model loaded by one search): the command
//     asks it over its socket and prints the answer.
// A lexical-only in-process search (`--embedding-model none`) is timed beside them. Each command
// runs 10 times, the commands taking turns, after one untimed run each (so the operating system's
// file cache is warm, as it is for a person who has run relata before). Prints medians, p90 and
// the ratios, how many searches the server answered, and whether the outputs were the same;
// asserts nothing.
//
//   RELATA_COLD_BASELINE=DIR  also time DIR/cli.js (an earlier build, beside a node_modules that
//                             resolves its packages), interleaved with dist/cli.js, and say whether
//                             its search output is the same. An earlier build knows no --no-server
//                             and no server: every search it runs is in-process.

import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  InitializeRequest,
  LogMessageNotification,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgressCreateRequest,
} from 'vscode-languageserver-protocol/node';
import { SearchRequest, StatusNotification, StatusRequest } from '../../shared/protocol.ts';
import { REPO_ROOT } from '../support/tempFolder.ts';

const RUNS = 10;
const QUERY = 'GC-2 refurbishment cost';
const ANSWERED = 'answered a `relata search` from the command line';
const root = mkdtempSync(path.join(tmpdir(), 'relata-cold-'));
const runtime = path.join(root, 'run');
mkdirSync(runtime, { mode: 0o700 });
const env: NodeJS.ProcessEnv = { ...process.env, RELATA_WORKSPACE: 'cold-bench', XDG_RUNTIME_DIR: runtime };
delete env.RELATA_EMBEDDING_MODEL;

interface Build {
  label: string;
  cli: string;
  /** Whether it may ask a running server (and knows --no-server). */
  asksServer: boolean;
}

const now: Build = { label: 'now', cli: path.join(REPO_ROOT, 'dist', 'cli.js'), asksServer: true };
const builds: Build[] = [now];
const baseline = process.env.RELATA_COLD_BASELINE;
if (baseline) builds.unshift({ label: 'before', cli: path.join(path.resolve(baseline), 'cli.js'), asksServer: false });
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

// The language server, as the editor starts it, on a copy of docs/demo (a folder of its own).
const folder = path.join(root, 'demo');
cpSync(path.join(REPO_ROOT, 'docs', 'demo'), folder, { recursive: true });
const dataLocation = path.join(root, 'data');
const server = spawn(process.execPath, [now.cli, 'serve', '--stdio'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
const connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
let answered = 0;
connection.onNotification(LogMessageNotification.type, ({ message }) => void (message.includes(ANSWERED) && (answered += 1)));
const watching = new Promise<void>((resolve) =>
  connection.onNotification(StatusNotification.type, (report) => void (report.folders[0]?.state === 'watching' && resolve())),
);
connection.listen();

try {
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`);
  console.log(`load average at start: ${loadavg().map((load) => load.toFixed(2)).join(' ')}`);
  const started = performance.now();
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'demo' }],
    initializationOptions: { settings: { dataLocation, embeddingModel: 'default' } },
  });
  await connection.sendNotification('initialized', {});
  await watching;
  // The server's query model, loaded by one search in the editor; the command's first ask (untimed)
  // finds it loaded only after the server's own check, so the server turns that one down.
  await connection.sendRequest(SearchRequest.type, { query: QUERY });
  const store = path.join(dataLocation, readdirSync(dataLocation)[0]!);
  console.log(`the language server indexed docs/demo with the default model and is idle after ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log(`query "${QUERY}"; ${RUNS} runs each, taking turns\n`);

  const inProcess = (build: Build) => (build.asksServer ? ['--no-server'] : []);
  const commands: { name: string; args: (build: Build) => string[] }[] = [
    { name: 'relata --help', args: () => ['--help'] },
    { name: 'relata search (in-process)', args: (build) => ['search', QUERY, '--data', store, ...inProcess(build)] },
    { name: 'relata search (server running)', args: () => ['search', QUERY, '--data', store] },
    { name: 'relata search --embedding-model none', args: (build) => ['search', QUERY, '--data', store, '--embedding-model', 'none', ...inProcess(build)] },
  ];
  const times = new Map<string, number[]>();
  const outputs = new Map<string, Set<string>>();
  const key = (build: Build, command: { name: string }) => `${build.label}\t${command.name}`;
  const answeredBefore = answered;
  for (let round = -1; round < RUNS; round += 1) {
    for (const command of commands) {
      for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
        const { ms, stdout } = run(build.cli, command.args(build));
        if (round < 0) continue; // the untimed warm-up
        (times.get(key(build, command)) ?? times.set(key(build, command), []).get(key(build, command))!).push(ms);
        (outputs.get(key(build, command)) ?? outputs.set(key(build, command), new Set()).get(key(build, command))!).add(stdout);
      }
    }
  }
  // The server logs an answer before sending it: once this request is answered, every line is in.
  await connection.sendRequest(StatusRequest.type, {});

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
  console.log(`\nthe language server answered ${answered - answeredBefore} of the ${RUNS + 1} searches asked with it running (now build; the untimed first is turned down while the server checks its model)`);
  const distinct = (build: Build, command: (typeof commands)[number]) => [...outputs.get(key(build, command))!];
  const [, searchInProcess, searchByServer] = commands;
  const sameAsInProcess = [...distinct(now, searchInProcess!), ...distinct(now, searchByServer!)];
  console.log(`server's answer and in-process search printed the same in every run: ${new Set(sameAsInProcess).size === 1 ? 'yes' : `NO (${new Set(sameAsInProcess).size} distinct outputs)`}`);
  if (builds.length > 1) {
    for (const command of commands.slice(1)) {
      const [before, after] = builds.map((build) => distinct(build, command));
      const same = before!.length === 1 && after!.length === 1 && before![0] === after![0];
      console.log(`${command.name}: the same output from both builds in every run: ${same ? 'yes' : `NO (${before!.length} and ${after!.length} distinct outputs)`}`);
    }
  }
  console.log(`load average at end: ${loadavg().map((load) => load.toFixed(2)).join(' ')}`);
  await connection.sendRequest('shutdown');
  await connection.sendNotification('exit');
} finally {
  server.kill();
  connection.dispose();
  rmSync(root, { recursive: true, force: true });
}
