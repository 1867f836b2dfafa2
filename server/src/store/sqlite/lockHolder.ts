// Which processes have a WAL store open, and which holds its write lock, for the messages a writer
// gives up with and a rebuild refuses with. SQLite takes its locks as POSIX record locks on bytes
// of the -shm file (os_unix.c): every open connection holds a read lock on the "DMS" byte (128)
// for as long as it is open, and the writer a write lock on byte 120 (WAL_WRITE_LOCK). Linux lists
// every such lock in /proc/locks with its owner's pid. It is read only when a command is about to
// give up or refuse, so its cost does not matter. Elsewhere (no /proc) it is not known.

import { readFileSync, statSync } from 'node:fs';

const WAL_WRITE_LOCK_BYTE = 120;
/** "1: POSIX  ADVISORY  WRITE 4242 fe:00:2482737 120 120"; a waiter's line has "->" after the number. */
const LOCK_LINE = /^\d+:\s+(POSIX|OFDLCK)\s+\S+\s+(READ|WRITE)\s+(-?\d+)\s+([0-9a-f]+):([0-9a-f]+):(\d+)\s+(\d+)\s+(\d+|EOF)\s*$/;

interface ShmLock {
  mode: 'READ' | 'WRITE';
  /** -1 for an OFD lock, which belongs to an open file rather than a process. */
  pid: number;
  start: number;
  end: number;
}

/** glibc's dev_t layout, as node's stat reports it. */
function deviceNumbers(dev: number): { major: number; minor: number } {
  const high = Math.floor(dev / 2 ** 32);
  return { major: ((dev >>> 8) & 0xfff) | ((high & 0xfffff000) >>> 0), minor: (dev & 0xff) | ((dev >>> 12) & 0xfff00) };
}

/** The locks held on the store's -shm file; null when they cannot be read here. */
function shmLocks(databaseFile: string): ShmLock[] | null {
  let locks: string;
  let shm: { dev: number; ino: number };
  try {
    shm = statSync(`${databaseFile}-shm`);
    locks = readFileSync('/proc/locks', 'utf8');
  } catch {
    return null;
  }
  const device = deviceNumbers(shm.dev);
  const found: ShmLock[] = [];
  for (const line of locks.split('\n')) {
    const match = LOCK_LINE.exec(line);
    if (!match) continue;
    const [, , mode, pid, major, minor, inode, start, end] = match;
    if (Number(inode) !== shm.ino || parseInt(major!, 16) !== device.major || parseInt(minor!, 16) !== device.minor) continue;
    found.push({ mode: mode as ShmLock['mode'], pid: Number(pid), start: Number(start), end: end === 'EOF' ? Infinity : Number(end) });
  }
  return found;
}

/** e.g. "process 4242 (node dist/cli.js index docs)"; "another connection in this process"; null when unknown. */
export function writeLockHolder(databaseFile: string): string | null {
  const held = (shmLocks(databaseFile) ?? []).find(
    (lock) => lock.mode === 'WRITE' && lock.start <= WAL_WRITE_LOCK_BYTE && lock.end >= WAL_WRITE_LOCK_BYTE,
  );
  if (!held) return null;
  if (held.pid === process.pid) return 'another connection in this process';
  return held.pid > 0 ? describeProcess(held.pid) : null;
}

/** Every other process with the store open (any lock on its -shm file), described; empty when none is known. */
export function otherProcessesWithStoreOpen(databaseFile: string): string[] {
  const pids = new Set((shmLocks(databaseFile) ?? []).map((lock) => lock.pid).filter((pid) => pid > 0 && pid !== process.pid));
  return [...pids].sort((a, b) => a - b).map(describeProcess);
}

function describeProcess(pid: number): string {
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return command ? `process ${pid} (${command.length > 120 ? `${command.slice(0, 119)}…` : command})` : `process ${pid}`;
  } catch {
    return `process ${pid}`;
  }
}
