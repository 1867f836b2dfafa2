// Another process holding a store's write lock, for tests of what readers and writers do meanwhile.
// The lock is released only when the test says so, so a test can check that something finished
// while it was still held without measuring time.

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface HeldWriteLock {
  pid: number;
  /** Size of the -wal file before the transaction began, and while it is held. */
  committedWalBytes: number;
  heldWalBytes: number;
  /** True while the holder still runs, so its lock is still held. */
  holding(): boolean;
  /** Rolls the transaction back and waits for the holder to exit; resolves with its exit code. */
  release(): Promise<number | null>;
}

const SCRIPT = path.join(import.meta.dirname, 'writeLockProcess.ts');

function start(database: string, args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', SCRIPT, database, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
}

export async function holdWriteLock(database: string, mode: 'lock' | 'pending-wal' = 'lock'): Promise<HeldWriteLock> {
  const child = start(database, [mode]);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    void exited.then((code) => reject(new Error(`the lock holder exited (${code}) before taking the lock`)));
  });
  const held = JSON.parse(line) as { pid: number; committedWalBytes: number; heldWalBytes: number };
  return {
    ...held,
    holding: () => child.exitCode === null && child.signalCode === null,
    release: () => {
      child.stdin!.end();
      return exited;
    },
  };
}

/** Commits a new title for the item at `itemPath` to the log and dies by SIGKILL, as a crashed writer would. */
export async function commitAndCrash(database: string, itemPath: string, title: string): Promise<void> {
  const child = start(database, ['crash', itemPath, title]);
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signalCode) => resolve(signalCode)));
  if (signal !== 'SIGKILL') throw new Error(`the crashing writer ended with ${signal ?? 'an exit'}, not SIGKILL`);
}
