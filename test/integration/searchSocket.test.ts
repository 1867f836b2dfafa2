// `relata search` while the language server has the same store open: the built command asks the
// built server (`dist/cli.js serve --stdio`, as the VS Code extension starts it) over its private
// socket, and prints exactly what it prints when it searches in its own process. It uses that
// server only for the very store it would open itself, never through a socket or directory other
// users could reach, and a server that is gone (its socket file left behind) costs nothing but
// the in-process search. Which side answered is read from the server's own log.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { LogMessageNotification } from 'vscode-languageserver-protocol/node';
import { CLI, needsBuild, startServer, type RunningServer } from '../support/languageServer.ts';
import { eventually } from '../support/eventually.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';
import { StatusRequest } from '../../shared/protocol.ts';

const WORKSPACE = 'socket-test';
const ANSWERED = 'answered a `relata search` from the command line';
const QUERY = 'gantry crane refurbishment cost';

test('relata search asks the language server that has its store open, and only that one', { skip: needsBuild, timeout: 300_000 }, async (t) => {
  const root = tempDir(t);
  const runtime = path.join(root, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  const folder = writeFiles(path.join(root, 'folder'), {
    'crane.md': '# Gantry crane GC-2\n\nExample Ltd refurbished the gantry crane GC-2 in May 2025 for EUR 42,000.\n',
    'budget.md': '# Capital budget\n\nThe refurbishment of GC-2 was paid from the 2025 maintenance budget.\n',
    'notes/call.txt': 'Call with Example Ltd about the invoice for the crane.\n',
  });
  const dataLocation = path.join(root, 'data');
  const env: NodeJS.ProcessEnv = { ...process.env, RELATA_WORKSPACE: WORKSPACE, XDG_RUNTIME_DIR: runtime };
  delete env.RELATA_EMBEDDING_MODEL;
  const socketDir = path.join(runtime, 'relata');

  const log: string[] = [];
  const answeredCount = () => log.filter((line) => line.includes(ANSWERED)).length;
  const start = () =>
    startServer(t, {
      folder,
      workspace: WORKSPACE,
      settings: { dataLocation, embeddingModel: 'default' },
      env: { XDG_RUNTIME_DIR: runtime },
      unsetEnv: ['RELATA_EMBEDDING_MODEL'],
      beforeListen: (connection) => connection.onNotification(LogMessageNotification.type, ({ message }) => log.push(message)),
    });
  let server: RunningServer = await start();
  await server.watching(180_000);
  await eventually(async () => existsSync(socketDir) && readdirSync(socketDir).some((name) => name.endsWith('.sock')), 'the server offers its socket');
  const [socketName, ...others] = readdirSync(socketDir);
  assert.deepEqual(others, [], 'one socket for one open store');
  const socket = path.join(socketDir, socketName!);
  const dataDir = path.join(dataLocation, readdirSync(dataLocation)[0]!);

  const relata = (...args: string[]) => {
    const run = spawnSync(process.execPath, [CLI, 'search', ...args], { cwd: root, env, encoding: 'utf8' });
    assert.equal(run.status, 0, `relata search ${args.join(' ')} failed: ${run.stderr}`);
    return run.stdout;
  };
  /**
   * What the command printed, and whether the server answered it. The server logs an answer
   * before it sends it, so once a later request is answered, the log line (if any) has arrived.
   */
  const search = async (...args: string[]) => {
    const before = answeredCount();
    const stdout = relata(...args);
    await server.connection.sendRequest(StatusRequest.type, {});
    return { stdout, byServer: answeredCount() > before };
  };

  await t.test('the socket and its directory are the user’s alone, and `relata search --help` says what it is for', () => {
    assert.equal(statSync(socketDir).mode & 0o777, 0o700);
    assert.equal(statSync(socket).mode & 0o777, 0o600);
    const help = relata('--help');
    assert.match(help, /--no-server +search in this process/);
    assert.match(help, /language server of VS Code \(relata serve\) has this very store open/);
  });

  await t.test('the server answers, and the output is the in-process output, text and JSON', async () => {
    const inProcess = await search(QUERY, '--data', dataDir, '--no-server');
    assert.equal(inProcess.byServer, false, '--no-server searches in the process');
    // The first ask starts the server's query model loading and is turned down: the command searches itself.
    const first = await search(QUERY, '--data', dataDir);
    assert.equal(first.byServer, false, 'the server does not make the command wait for its model to load');
    assert.equal(first.stdout, inProcess.stdout);
    await eventually(async () => (await search(QUERY, '--data', dataDir)).byServer, 'the server answers once its query model is loaded', 60_000);
    const byServer = await search(QUERY, '--data', dataDir);
    assert.equal(byServer.byServer, true, 'the running server answered');
    assert.equal(byServer.stdout, inProcess.stdout);
    assert.match(byServer.stdout, /crane\.md/);
    assert.match(byServer.stdout, /similarity 0\.\d\d/, 'the vector path ran (the server’s query model), not words alone');

    const jsonByServer = await search(QUERY, '--data', dataDir, '--json', '--limit', '2', '--rank-version', 'v1');
    const jsonInProcess = await search(QUERY, '--data', dataDir, '--json', '--limit', '2', '--rank-version', 'v1', '--no-server');
    assert.deepEqual([jsonByServer.byServer, jsonInProcess.byServer], [true, false]);
    assert.equal(jsonByServer.stdout, jsonInProcess.stdout);
    assert.equal(JSON.parse(jsonByServer.stdout).rank_version, 'query-rank-v1');
  });

  await t.test('another store, workspace or embedding model is searched in the process', async () => {
    const other = writeFiles(path.join(root, 'other'), { 'pump.md': '# Pump P-7\n\nThe pump was replaced.\n' });
    const otherData = path.join(root, 'other-data');
    const indexed = spawnSync(process.execPath, [CLI, 'index', other, '--data', otherData, '--embedding-model', 'none'], { env, encoding: 'utf8' });
    assert.equal(indexed.status, 0, indexed.stderr);
    const otherStore = await search('pump', '--data', otherData, '--embedding-model', 'none');
    assert.equal(otherStore.byServer, false);
    assert.match(otherStore.stdout, /pump\.md/);

    const lexical = await search(QUERY, '--data', dataDir, '--embedding-model', 'none');
    assert.equal(lexical.byServer, false, 'the server embeds with another model than the command would');
    assert.match(lexical.stdout, /Unavailable: vector/);

    const otherWorkspace = await search(QUERY, '--data', dataDir, '--workspace', 'someone-else');
    assert.equal(otherWorkspace.byServer, false, 'the server reads another workspace');
  });

  await t.test('a request for another store is refused by the server itself', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      const connection = createConnection(socket, () =>
        connection.write(`${JSON.stringify({ store: 'f'.repeat(64), query: 'crane', limit: 5, rankVersion: 'query-rank-v2', expansion: { maxSeeds: 5, minScore: 0.5, confirmedOnly: false } })}\n`),
      );
      connection.on('data', (chunk) => (text += chunk));
      connection.on('end', () => resolve(text));
      connection.on('error', reject);
    });
    const parsed = JSON.parse(answer) as { error?: string; response?: unknown };
    assert.equal(parsed.response, undefined);
    assert.match(parsed.error ?? '', /another store/);
  });

  await t.test('a socket or directory other users could reach is not used', async (t) => {
    const refusedWhile = async (change: () => void, undo: () => void, what: string) => {
      change();
      try {
        const attempt = await search(QUERY, '--data', dataDir);
        assert.equal(attempt.byServer, false, `${what}: the server was asked`);
        assert.match(attempt.stdout, /crane\.md/, `${what}: the search still ran`);
      } finally {
        undo();
      }
      assert.equal((await search(QUERY, '--data', dataDir)).byServer, true, `${what} undone: the server is asked again`);
    };
    await refusedWhile(() => chmodSync(socket, 0o666), () => chmodSync(socket, 0o600), 'a socket of mode 0666');
    await refusedWhile(() => chmodSync(socketDir, 0o777), () => chmodSync(socketDir, 0o700), 'a directory of mode 0777');
    await refusedWhile(() => chmodSync(socketDir, 0o750), () => chmodSync(socketDir, 0o700), 'a directory its group can enter');
    if (process.getuid?.() !== 0) {
      t.diagnostic('not run as root: a directory owned by another user cannot be made here, so that case is not tested');
      return;
    }
    const uid = process.getuid();
    await refusedWhile(() => chownSync(socketDir, 4242, 4242), () => chownSync(socketDir, uid, process.getgid!()), 'a directory owned by another user');
    await refusedWhile(() => chownSync(socket, 4242, 4242), () => chownSync(socket, uid, process.getgid!()), 'a socket owned by another user');
  });

  await t.test('a socket left behind by a server that is gone falls back, the next server replaces it, and one that exits removes it', async () => {
    assert.equal(await server.shutdown(), 0, server.stderr());
    assert.equal(existsSync(socket), false, 'a server that closes removes its socket');
    // A process killed while listening leaves its socket file behind, as a crashed server would.
    const holder = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(socket)}, () => console.log('listening'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => holder.stdout.once('data', resolve));
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    assert.equal(statSync(socket).isSocket(), true, 'the socket file is left behind');
    chmodSync(socket, 0o600);

    const stale = spawnSync(process.execPath, [CLI, 'search', QUERY, '--data', dataDir], { cwd: root, env, encoding: 'utf8' });
    assert.equal(stale.status, 0, stale.stderr);
    assert.equal(stale.stdout, relata(QUERY, '--data', dataDir, '--no-server'));

    log.length = 0;
    server = await start();
    await server.watching(180_000);
    await eventually(async () => {
      relata(QUERY, '--data', dataDir);
      return answeredCount() > 0;
    }, 'the new server answers on the replaced socket', 60_000);
    // An editor that goes away without the shutdown request: the process exits at once.
    await server.connection.sendNotification('exit');
    await eventually(async () => !existsSync(socket), 'a server told to exit without a shutdown removes its socket too');
  });
});
