// The built language server as an editor runs it: `dist/cli.js serve --stdio` as a child process,
// spoken to over LSP. One place for what every language-server test and benchmark repeats (spawn,
// connect, initialize for one folder, wait until the folder is indexed and watched, shut down), so
// each file says only what it asserts or measures.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TestContext } from 'node:test';
import {
  createProtocolConnection,
  InitializeRequest,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgressCreateRequest,
  type ClientCapabilities,
  type InitializeResult,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { StatusNotification, type StatusReport } from '../../shared/protocol.ts';
import { REPO_ROOT } from './tempFolder.ts';

export const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
/** A test's `skip` option: the server under test is the built one. */
export const needsBuild: string | false = existsSync(CLI) ? false : 'dist/cli.js is missing: run `npm run build` first';

export interface ServerOptions {
  folder: string;
  /** The settings an editor sends in initializationOptions (dataLocation, embeddingModel, ...). */
  settings: Record<string, unknown>;
  workspace: string;
  /** Variables to remove from the child's environment (e.g. a model configured on this machine). */
  unsetEnv?: string[];
  /** Variables to set in the child's environment (e.g. the store location, as the extension passes it). */
  env?: Record<string, string>;
  capabilities?: ClientCapabilities;
  /** Registers handlers before the connection listens, so no early notification is missed. */
  beforeListen?: (connection: ProtocolConnection) => void;
}

export interface RunningServer {
  connection: ProtocolConnection;
  /** The server process's id (its memory is read from /proc/<pid>/status by benchmarks). */
  pid: number;
  folderUri: string;
  init: InitializeResult;
  /** Every relata/status report so far, oldest first. */
  statuses: StatusReport[];
  stderr(): string;
  /** Resolves once a status report says the folder is watched (its first index run is done). */
  watching(timeoutMs?: number): Promise<void>;
  /** shutdown + exit, as an editor closes; resolves with the exit code. */
  shutdown(): Promise<number | null>;
  /** Ends the process and the connection at once (a test's or benchmark's clean-up). */
  kill(): void;
}

/** A server for a test: killed when the test ends, whatever it asserted. */
export async function startServer(t: TestContext, options: ServerOptions): Promise<RunningServer> {
  let started: RunningServer | undefined;
  t.after(() => started?.kill());
  started = await launchServer(options);
  return started;
}

/** A server for whoever ends it (a benchmark): spawned, connected, initialized for one folder. */
export async function launchServer(options: ServerOptions): Promise<RunningServer> {
  const environment: NodeJS.ProcessEnv = { ...process.env, RELATA_WORKSPACE: options.workspace };
  for (const name of options.unsetEnv ?? []) delete environment[name];
  Object.assign(environment, options.env);
  const child = spawn(process.execPath, [CLI, 'serve', '--stdio'], { env: environment, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const kill = () => {
    child.kill();
    connection.dispose();
  };
  connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
  const statuses: StatusReport[] = [];
  const statusListeners = new Set<() => void>();
  connection.onNotification(StatusNotification.type, (report) => {
    statuses.push(report);
    for (const listener of statusListeners) listener();
  });
  options.beforeListen?.(connection);
  connection.listen();

  const folderUri = pathToFileURL(options.folder).href;
  let init: InitializeResult;
  try {
    init = await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      capabilities: options.capabilities ?? {},
      workspaceFolders: [{ uri: folderUri, name: path.basename(options.folder) }],
      initializationOptions: { settings: options.settings },
    });
    await connection.sendNotification('initialized', {});
  } catch (error) {
    kill();
    throw error;
  }

  const watching = (timeoutMs = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        statusListeners.delete(check);
        reject(new Error(`not watching within ${timeoutMs / 1000} s:\n${stderr}`));
      }, timeoutMs);
      const check = () => {
        if (!statuses.some((report) => report.folders[0]?.state === 'watching')) return;
        clearTimeout(timer);
        statusListeners.delete(check);
        resolve();
      };
      statusListeners.add(check);
      check();
    });

  return {
    connection,
    pid: child.pid!,
    folderUri,
    init,
    statuses,
    stderr: () => stderr,
    watching,
    async shutdown() {
      await connection.sendRequest('shutdown');
      await connection.sendNotification('exit');
      return exited;
    },
    kill,
  };
}
