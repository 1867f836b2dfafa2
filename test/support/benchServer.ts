// The built language server (`dist/cli.js serve --stdio`) as the LSP benchmarks start it: a child
// process with a protocol connection, the editor's progress requests answered and its log
// messages dropped, its stderr kept (the tail, so a flood from a hostile file costs no memory) for
// the report, and one way to stop it that never leaves a server behind.

import { spawn } from 'node:child_process';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  WorkDoneProgressCreateRequest,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';

const STDERR_KEPT_CHARS = 1024 * 1024;
const EXIT_WAIT_MS = 20_000;

export interface BenchServer {
  connection: ProtocolConnection;
  pid: number;
  /** What the server wrote to stderr (its last megabyte). */
  stderr(): string;
  /** Shutdown and exit, killed if it has not exited within 20 s; an unclean exit is reported with the tail of stderr. */
  stop(name: string): Promise<void>;
}

export function startBenchServer(cli: string, options: { workspace: string; nodeArgs?: string[]; env?: Record<string, string> }): BenchServer {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), cli, 'serve', '--stdio'], {
    env: { ...process.env, RELATA_WORKSPACE: options.workspace, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-STDERR_KEPT_CHARS)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
  connection.onNotification('window/logMessage', () => undefined);
  return {
    connection,
    pid: child.pid!,
    stderr: () => stderr,
    async stop(name) {
      await connection.sendRequest('shutdown').catch(() => undefined);
      await connection.sendNotification('exit').catch(() => undefined);
      const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('timeout'), EXIT_WAIT_MS))]);
      if (code === 'timeout') child.kill('SIGKILL');
      else if (code !== 0) console.error(`${name} exited with ${code}:\n${stderr.slice(-2000)}`);
      connection.dispose();
    },
  };
}
