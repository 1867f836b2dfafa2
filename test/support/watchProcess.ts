// `relata index --watch` as its own process, as a person leaves it running in a terminal: its
// stderr collected, stopped with SIGTERM when the test ends, and "started" once it says it is
// watching.

import { spawn } from 'node:child_process';
import type { TestContext } from 'node:test';
import { eventually } from './eventually.ts';

export interface WatchProcess {
  stderr(): string;
  exitCode(): number | null;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export async function startWatchProcess(t: TestContext, command: string, argv: string[], env: NodeJS.ProcessEnv): Promise<WatchProcess> {
  const watcher = spawn(command, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  watcher.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => watcher.once('exit', (code) => resolve(code)));
  t.after(async () => {
    if (watcher.exitCode === null) watcher.kill('SIGTERM');
    await exited;
  });
  await eventually(async () => stderr.includes('watching'), `the watcher starts (it said: ${stderr})`, 60_000);
  return {
    stderr: () => stderr,
    exitCode: () => watcher.exitCode,
    async stop() {
      watcher.kill('SIGTERM');
      return exited;
    },
  };
}
