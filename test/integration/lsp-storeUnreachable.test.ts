// The language server started as the extension starts it for a MongoDB + Qdrant store (the
// location and credentials in its environment), with both servers away: ports on this machine
// where nothing listens, reached by the official clients. The folder waits for its store, saying
// which server and where in its status (no password, no stack), instead of failing; the server
// still answers and shuts down. What happens when the servers come back needs real servers: the
// contract suite's MongoDB half covers that where RELATA_TEST_MONGODB_URI is set.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { LogMessageNotification } from 'vscode-languageserver-protocol/node';
import { StatusRequest } from '../../shared/protocol.ts';
import { openMongoQdrantStore } from '../../server/src/store/mongoQdrant/index.ts';
import { folderKey } from '../../server/src/store/dataDir.ts';
import { needsBuild, startServer } from '../support/languageServer.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';
import { closedPort } from '../support/closedPort.ts';

/** Opening connects nothing until the first operation; a backend that cannot even be opened is not built yet. */
async function backendMissing(): Promise<string | false> {
  try {
    const location = { backend: 'mongodb-qdrant', mongodbUri: 'mongodb://127.0.0.1:1/x', qdrantUrl: 'http://127.0.0.1:1', folder: 'probe' } as const;
    const opened = await openMongoQdrantStore({ location, workspace: 'probe', access: 'read' });
    await opened.store.close();
    return false;
  } catch (error) {
    return `the MongoDB + Qdrant backend does not open yet: ${(error as Error).message}`;
  }
}

test(
  'with MongoDB away the folder waits for its store and says which server and where, without the password',
  { skip: needsBuild, timeout: 120_000 },
  async (t) => {
    const missing = await backendMissing();
    if (missing) return t.skip(missing);
    const folder = writeFiles(path.join(tempDir(t), 'contracts'), { 'crane.md': '# Gantry crane GC-2\n\nRefurbished in May 2025.\n' });
    const [mongoPort, qdrantPort] = [await closedPort(), await closedPort()];
    const log: string[] = [];
    const server = await startServer(t, {
      folder,
      workspace: 'lsp-unreachable',
      settings: { embeddingModel: 'none' },
      env: {
        RELATA_STORE: 'mongodb-qdrant',
        RELATA_MONGODB_URI: `mongodb://alice:hunter2@127.0.0.1:${mongoPort}/relata`,
        RELATA_QDRANT_URL: `http://127.0.0.1:${qdrantPort}`,
        RELATA_QDRANT_API_KEY: 'key-never-shown',
      },
      beforeListen: (connection) => connection.onNotification(LogMessageNotification.type, ({ message }) => log.push(message)),
    });
    const deadline = Date.now() + 60_000;
    let status = (await server.connection.sendRequest(StatusRequest.type, {})).folders[0];
    while (!status?.store?.unreachable && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await server.connection.sendRequest(StatusRequest.type, {})).folders[0];
    }
    assert.ok(status?.store?.unreachable, `the status says the store is unreachable:\n${server.stderr()}`);
    assert.notEqual(status.state, 'failed', `waiting, not failed: ${status.reason}`);
    assert.equal(status.store.backend, 'mongodb-qdrant');
    assert.equal(status.store.where, `mongodb://***@127.0.0.1:${mongoPort}/relata + http://127.0.0.1:${qdrantPort} (folder ${folderKey(folder)})`);
    assert.match(status.store.unreachable, new RegExp(`MongoDB.*127\\.0\\.0\\.1:${mongoPort}`));
    assert.match(status.reason ?? '', /will retry in/);
    assert.ok(log.some((line) => line.includes('will retry in')), `the output says it waits:\n${log.join('\n')}`);
    const said = [JSON.stringify(status), server.stderr(), ...log].join('\n');
    for (const secret of ['hunter2', 'key-never-shown']) assert.ok(!said.includes(secret), `${secret} shown: ${said}`);
    assert.ok(!/\n\s+at /.test(said), 'no stack');
    assert.equal(await server.shutdown(), 0);
  },
);
