// Runs the test files (test/unit, test/contract, test/integration: every *.test.ts, found afresh on
// each run) several at a time and ends with one summary line. Running files side by side is what
// brings the suite from half an hour to minutes on two cores.
//
// Starting a process for a test file costs ~2 s of CPU before its first test (tsx loading the
// modules it imports through Node's loader hooks): the 17 contract files cost 49 s of CPU run one
// process each and 10 s in one. So files that touch no process-wide state (no writes to
// process.env, no globalThis, process.on/exit/argv/chdir, root-level hooks or mocks; see
// mayShareProcess) run in batches, several files of one suite imported into one process
// (test-batch.mjs); node:test runs the tests every imported file registers, one after another.
// The files that do touch such state, and any file named on the command line alone, keep a
// process of their own.
//
// A file that must not share the machine with other files (a fixed port, a shared path, a
// measured duration, a memory ceiling) says so with a line `// test-runner: alone (reason)`, and a
// file that listens on a fixed port is found without it; those files run one after another once
// the parallel files are done, and the summary names them.
//
// A whole run (no file or folder named) type-checks too, as one more job beside the files.
//
//   node scripts/run-tests.mjs [--jobs N] [--save-costs] [file or folder …]
//
// --jobs (or RELATA_TEST_JOBS) defaults to the machine's cores plus two: a test file spends part
// of its time starting Node and waiting (on child processes, on a lock another process holds, on
// a server that never answers: watchContention waits 113 s on 18 s of CPU), so two more files
// than cores keep both cores busy. Each file's (or batch's) full TAP output is kept in
// .test-results/; the failures are printed as they happen and listed again at the end, with the
// CPU time the run cost. Files start longest first, by the last run's times or, on a clean clone,
// scripts/test-costs.json (written by --save-costs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SUITES = ['test/unit', 'test/contract', 'test/integration'];
/**
 * The product's time limit per file (a minute, and OCR's on top) stops a crafted file; on a machine
 * at load 20 a real one (a scanned PDF's OCR, a million-row CSV read to its cap) passed it, and a
 * test about something else failed. Tests run with ten minutes unless the environment or the test
 * sets its own: the limits themselves are tested where a test sets them (parseIsolation,
 * chunkExtractIsolation, stageThreads).
 */
const GENEROUS_TIME_LIMITS = { RELATA_PARSE_TIMEOUT_MS: String(10 * 60_000), RELATA_OCR_TIME_MS: String(10 * 60_000) };
const RESULTS = path.join(ROOT, '.test-results');
const TIMINGS = path.join(RESULTS, 'timings.json');
// What each file took in a whole run on an idle two-core machine, kept in the repository so that a
// clean clone (CI, a newcomer) schedules the longest files first too; the last run's own times,
// in .test-results/, take over once there are some. Refresh with --save-costs after a whole run.
const COSTS = path.join(ROOT, 'scripts', 'test-costs.json');
const ALONE = /^\s*\/\/\s*test-runner:\s*alone\b\s*(.*)$/m;
// A server on a fixed port would collide with another file's: such a file runs alone even unmarked.
const FIXED_PORT = /\.listen\(\s*[1-9]\d*\s*[,)]/;

function mustRunAlone(source) {
  const marked = ALONE.exec(source);
  if (marked) return marked[1].trim() || '(marked)';
  return FIXED_PORT.test(source) ? '(listens on a fixed port)' : null;
}

// What makes a file keep its own process: state that would reach the other files of a batch.
// Reading the environment is harmless (most files pass it on to the processes they start);
// writing it is not. A root-level hook (written out, or registered by indexedFolder at the top of
// a file) would run around every file's tests in the batch.
const PROCESS_WIDE = new RegExp([
  /process\.env(?:\.\w+|\[[^\]]+\])\s*(?:=(?!=)|\+\+|--)|delete\s+process\.env|Object\.assign\(process\.env/.source,
  /globalThis|process\.(?:on|once|off|chdir|exit|exitCode|argv|umask|removeListener)\b/.source,
  /^(?:before|after|beforeEach|afterEach)\(|^(?:(?:const|let) \w+ = )?indexedFolder\(/.source,
  /\bmock\.|test-runner:\s*alone/.source,
].join('|'), 'm');
// Files per batch, by suite: enough that start-up (~2 s of CPU for tsx to load the modules a file
// imports) is paid rarely, few enough that the batches spread over the jobs and a crash takes few
// files' results with it. Integration files are longer, so fewer share a process.
const BATCH_SIZE = { 'test/unit/': 20, 'test/contract/': 20, 'test/integration/': 8 };

function suiteOf(file) {
  return Object.keys(BATCH_SIZE).find((suite) => file.startsWith(suite)) ?? null;
}

function mayShareProcess(file, source) {
  return suiteOf(file) !== null && !PROCESS_WIDE.test(source);
}

// A batch is a list of files run in one process; a lone file is a batch of one. Files share a
// process only with files of their own suite.
function batches(files, sources) {
  const shared = files.filter((file) => mayShareProcess(file, sources.get(file)));
  const own = files.filter((file) => !shared.includes(file)).map((file) => ({ name: file, files: [file] }));
  const grouped = Object.entries(BATCH_SIZE).flatMap(([suite, size]) => {
    const members = shared.filter((file) => suiteOf(file) === suite);
    if (members.length < 2) return members.map((file) => ({ name: file, files: [file] }));
    const count = Math.ceil(members.length / size);
    return Array.from({ length: count }, (_, n) => ({
      name: `${suite}batch-${n + 1}-of-${count}`,
      files: members.filter((_, index) => index % count === n),
    }));
  });
  return [...own, ...grouped];
}

// The worker threads' bundles in dist/ (esbuild.mjs): test code under tsx starts these instead of
// the threads' source (server/src/embed/workerThread.ts), 1.4 s of CPU less per thread. dist/ is
// rebuilt first when any source is newer, so a thread never runs code older than its caller's.
const DIST = path.join(ROOT, 'dist');
const WORKER_BUNDLES = ['stageThread.js', 'discoveryThread.js', 'searchThread.js', 'storeCheckThread.js', 'useLiteWorker.js', 'onnxWorker.js'];
const SOURCES = ['server/src', 'shared', 'esbuild.mjs', 'package.json'];

function newestChange(target) {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestChange(path.join(target, name))), stat.mtimeMs);
}

function ensureFreshBundles() {
  const built = WORKER_BUNDLES.map((name) => path.join(DIST, name));
  const oldest = built.every((file) => existsSync(file)) ? Math.min(...built.map((file) => statSync(file).mtimeMs)) : -Infinity;
  const newest = Math.max(...SOURCES.map((source) => newestChange(path.join(ROOT, source))));
  if (newest <= oldest) return;
  console.log('run-tests: dist/ is older than the source; building it (node esbuild.mjs)');
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('run-tests: the build failed; fix it and run again');
    process.exit(2);
  }
}

function parseArguments(argv) {
  let jobs = Number(process.env.RELATA_TEST_JOBS) || availableParallelism() + 2;
  const targets = [];
  let saveCosts = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--save-costs') saveCosts = true;
    else if (argv[i] === '--jobs') jobs = Number(argv[++i]);
    else if (argv[i].startsWith('--jobs=')) jobs = Number(argv[i].slice('--jobs='.length));
    else targets.push(argv[i]);
  }
  if (!Number.isInteger(jobs) || jobs < 1) {
    console.error(`run-tests: --jobs takes a whole number of at least 1, not "${jobs}"`);
    process.exit(2);
  }
  return { jobs, saveCosts, whole: targets.length === 0, targets: targets.length > 0 ? targets : SUITES };
}

function testFiles(targets) {
  const files = [];
  for (const target of targets) {
    const full = path.resolve(ROOT, target);
    if (!existsSync(full)) {
      console.error(`run-tests: ${target} does not exist`);
      process.exit(2);
    }
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full).sort()) if (name.endsWith('.test.ts')) files.push(path.join(full, name));
    } else files.push(full);
  }
  return files.map((file) => path.relative(ROOT, file));
}

/** By file (or batch): its wall and CPU seconds in the last run, else in the repository's record. */
function readTimings() {
  for (const source of [TIMINGS, COSTS]) {
    try {
      return JSON.parse(readFileSync(source, 'utf8'));
    } catch {
      // not there (a clean clone has no last run) or not readable: try the next
    }
  }
  return {};
}

// Longest first by wall time, so that a long file does not start last and leave the other cores
// idle: a file that mostly waits (on a held lock, a server that never answers) is long although
// it costs little CPU. Files never timed go first, in case they are long.
function schedule(runs, timings) {
  const length = (run) => timings[run.name]?.seconds ?? Infinity;
  return [...runs].sort((a, b) => length(b) - length(a) || a.name.localeCompare(b.name));
}

// The type-check is one more job of a whole run, beside the test files rather than before them:
// alone it would keep one core idle for its half-minute.
const TYPECHECK = { name: 'typecheck', files: [], command: ['npm', 'run', '--silent', 'typecheck'] };

function counts(tap) {
  const read = (name) => Number([...tap.matchAll(new RegExp(`^# ${name} (\\d+)$`, 'gm'))].at(-1)?.[1] ?? 0);
  return { tests: read('tests'), pass: read('pass'), fail: read('fail'), cancelled: read('cancelled'), skipped: read('skipped'), todo: read('todo') };
}

// The names of the failed tests, innermost first: a failed subtest also fails its parents, so a
// parent is listed only when none of its subtests failed. Each name carries the file its failure
// was reported at (TAP's location), which tells the files of a batch apart.
function failedTests(tap) {
  const failed = [];
  let deepest = Infinity;
  let located = true;
  for (const line of tap.split('\n')) {
    const where = /^\s*location: '(.+?):\d+:\d+'$/.exec(line);
    if (where && !located) {
      failed[failed.length - 1].file = path.relative(ROOT, where[1]);
      located = true;
      continue;
    }
    const match = /^(\s*)not ok \d+ - (.*)$/.exec(line);
    if (!match) {
      if (/^\s*ok \d+ - /.test(line)) deepest = Infinity;
      continue;
    }
    const depth = match[1].length;
    if (depth < deepest && deepest !== Infinity) {
      deepest = depth;
      continue;
    }
    failed.push({ name: match[2].replace(/ # .*$/, ''), file: null });
    located = false;
    deepest = depth;
  }
  return failed;
}

function logName(file) {
  // A batch's name is a folder-like label (test/unit/batch-2-of-7), not a file: it gets a .log too.
  if (!file.endsWith('.ts')) file = `${file}.ts`;
  return file.replace(/^test\//, '').replace(/[\\/]/g, '__').replace(/\.ts$/, '.log');
}

// GNU time, where the machine has it, measures each file's CPU seconds (its processes and threads
// together): on a shared machine the wall time says how busy the machine was, the CPU time what
// the file costs, so their sum over two cores is what the suite would take on an idle machine.
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

function cpuSeconds(file) {
  try {
    const [user, system] = readFileSync(file, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
    return Number.isFinite(user + system) ? user + system : null;
  } catch {
    return null;
  }
}

// A file runs as `node --import tsx <file>` with the TAP reporter, not under `node --test`: that
// would start a second Node (and tsx) only to run the first, 0.13 s of CPU per file for nothing.
// A batch runs test-batch.mjs, which imports its files one after another into the one process.
function runBatch({ name: file, files, command: own }) {
  const started = performance.now();
  const cpuFile = path.join(RESULTS, logName(file).replace(/\.log$/, '.cpu'));
  const entry = files.length === 1 ? files : [path.join('scripts', 'test-batch.mjs'), ...files];
  const command = own ?? [process.execPath, '--import', 'tsx', '--test-reporter=tap', ...entry];
  return new Promise((resolve) => {
    const child = spawn(GNU_TIME ?? command[0], GNU_TIME ? ['-f', '%U %S', '-o', cpuFile, ...command] : command.slice(1), {
      cwd: ROOT,
      env: { ...GENEROUS_TIME_LIMITS, ...process.env, RELATA_WORKER_BUNDLES: DIST },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('close', (code, signal) => {
      const tap = Buffer.concat(chunks).toString('utf8');
      writeFileSync(path.join(RESULTS, logName(file)), tap);
      const seconds = (performance.now() - started) / 1000;
      const result = { file, files, seconds, cpu: GNU_TIME ? cpuSeconds(cpuFile) : null, code, signal, ...counts(tap), failed: failedTests(tap) };
      rmSync(cpuFile, { force: true });
      if ((code !== 0 || signal) && result.fail === 0) {
        result.fail = 1;
        const what = own ? `${file} found errors` : signal ? `the file's process was killed by ${signal}` : `the file's process exited with code ${code}`;
        result.failed.push({ name: what, file: null });
      }
      resolve(result);
    });
  });
}

function seconds(value) {
  return `${value.toFixed(1).padStart(6)} s`;
}

function duration(totalSeconds) {
  const minutes = Math.floor(totalSeconds / 60);
  const rest = Math.round(totalSeconds - minutes * 60);
  return minutes > 0 ? `${minutes} min ${rest} s` : `${rest} s`;
}

const number = new Intl.NumberFormat('en-GB');

function failureLine(result, { name, file }) {
  return result.files.length > 1 && file !== null ? `${name} (${file})` : name;
}

function report(result) {
  const mark = result.fail > 0 ? 'FAIL' : 'ok  ';
  const cpu = result.cpu === null ? '' : ` ${seconds(result.cpu)} CPU`;
  const many = result.files.length > 1 ? `${result.files.length} files, ` : '';
  const what = result.files.length === 0 ? '' : ` (${many}${result.tests} tests${result.skipped ? `, ${result.skipped} skipped` : ''})`;
  console.log(`${mark} ${seconds(result.seconds)}${cpu}  ${result.file}${what}`);
  for (const failure of result.failed) console.log(`       not ok: ${failureLine(result, failure)}`);
  if (result.fail > 0) console.log(`       output: .test-results/${logName(result.file)}`);
}

async function runAll(files, jobs) {
  const queue = [...files];
  const results = [];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const result = await runBatch(file);
      report(result);
      results.push(result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));
  return results;
}

const { jobs, saveCosts, whole, targets } = parseArguments(process.argv.slice(2));
const files = testFiles(targets);
const sources = new Map(files.map((file) => [file, readFileSync(path.join(ROOT, file), 'utf8')]));
const alone = new Map(files.flatMap((file) => {
  const why = mustRunAlone(sources.get(file));
  return why === null ? [] : [[file, why]];
}));
const side = [...(whole ? [TYPECHECK] : []), ...batches(files.filter((file) => !alone.has(file)), sources)];
ensureFreshBundles();
const previous = readTimings();
rmSync(RESULTS, { recursive: true, force: true, maxRetries: 3 });
mkdirSync(RESULTS, { recursive: true });
const started = performance.now();
const load = loadavg()[0];
const batched = side.filter((batch) => batch.files.length > 1);
const inBatches = batched.reduce((sum, batch) => sum + batch.files.length, 0);
console.log(`run-tests: ${files.length} files, ${jobs} at a time (${files.length - alone.size} side by side${batched.length ? `, ${inBatches} of them in ${batched.length} shared processes` : ''}, then ${alone.size} alone); load ${load.toFixed(1)} on ${availableParallelism()} cores`);

const results = [
  ...(await runAll(schedule(side, previous), jobs)),
  ...(await runAll(schedule([...alone.keys()].map((file) => ({ name: file, files: [file] })), previous), 1)),
];
const wall = (performance.now() - started) / 1000;

const tenths = (value) => (value === null ? null : Math.round(value * 10) / 10);
const timings = { ...previous, ...Object.fromEntries(results.map((r) => [r.file, { seconds: tenths(r.seconds), cpu: tenths(r.cpu) }])) };
const cpuTotal = results.every((r) => r.cpu !== null) ? results.reduce((sum, r) => sum + r.cpu, 0) : null;
writeFileSync(TIMINGS, `${JSON.stringify(timings, null, 1)}\n`);
if (saveCosts) writeFileSync(COSTS, `${JSON.stringify(Object.fromEntries(Object.entries(timings).sort()), null, 1)}\n`);
const total = results.reduce((sum, r) => ({
  tests: sum.tests + r.tests, pass: sum.pass + r.pass, fail: sum.fail + r.fail,
  skipped: sum.skipped + r.skipped + r.todo, cancelled: sum.cancelled + r.cancelled,
}), { tests: 0, pass: 0, fail: 0, skipped: 0, cancelled: 0 });
const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, 8);
const summary = [
  '',
  `Slowest files: ${slowest.map((r) => `${r.file.replace(/^test\//, '')} ${r.seconds.toFixed(0)} s`).join(', ')}`,
  cpuTotal === null ? '' : `CPU time: ${duration(cpuTotal)} in all, i.e. at least ${duration(cpuTotal / availableParallelism())} of wall time on an idle ${availableParallelism()}-core machine`,
  alone.size > 0 ? `Ran alone: ${[...alone].map(([file, why]) => `${file.replace(/^test\//, '')} ${why}`).join('; ')}` : '',
  ...results.filter((r) => r.fail > 0).flatMap((r) => [`FAILED ${r.file} (.test-results/${logName(r.file)})`, ...r.failed.map((failure) => `  not ok: ${failureLine(r, failure)}`)]),
  `${number.format(total.tests)} tests in ${files.length} files: ${number.format(total.pass)} passed, ${number.format(total.fail)} failed, ${number.format(total.skipped)} skipped${total.cancelled ? `, ${number.format(total.cancelled)} cancelled` : ''} — see .test-results/ — ${duration(wall)} wall time, ${jobs} at a time, load ${load.toFixed(1)} at the start on ${availableParallelism()} cores`,
].filter((line) => line !== '');
console.log(summary.join('\n'));
writeFileSync(path.join(RESULTS, 'summary.txt'), `${summary.join('\n')}\n`);
process.exitCode = total.fail > 0 || total.cancelled > 0 ? 1 : 0;
