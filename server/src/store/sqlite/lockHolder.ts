// Which process holds a WAL store's write lock, for the message a writer gives up with. SQLite
// takes that lock as a POSIX record lock on one byte of the -shm file (byte 120: WAL_WRITE_LOCK
// past the shared-memory header, os_unix.c), and Linux lists every such lock in /proc/locks with
// its owner's pid. It is read only when a writer has already given up, so its cost does not
// matter. Elsewhere (no /proc), or when the lock was released before we looked, it is not known.

import { readFileSync, statSync } from 'node:fs';

const WAL_WRITE_LOCK_BYTE = 120;
/** "1: POSIX  ADVISORY  WRITE 4242 fe:00:2482737 120 120"; a waiter's line has "->" after the number. */
const LOCK_LINE = /^\d+:\s+(POSIX|OFDLCK)\s+\S+\s+WRITE\s+(-?\d+)\s+([0-9a-f]+):([0-9a-f]+):(\d+)\s+(\d+)\s+(\d+|EOF)\s*$/;

/** glibc's dev_t layout, as node's stat reports it. */
function deviceNumbers(dev: number): { major: number; minor: number } {
  const high = Math.floor(dev / 2 ** 32);
  return { major: ((dev >>> 8) & 0xfff) | ((high & 0xfffff000) >>> 0), minor: (dev & 0xff) | ((dev >>> 12) & 0xfff00) };
}

/** e.g. "process 4242 (node dist/cli.js index docs)"; "another connection in this process"; null when unknown. */
export function writeLockHolder(databaseFile: string): string | null {
  let locks: string;
  let shm: { dev: number; ino: number };
  try {
    shm = statSync(`${databaseFile}-shm`);
    locks = readFileSync('/proc/locks', 'utf8');
  } catch {
    return null;
  }
  const device = deviceNumbers(shm.dev);
  for (const line of locks.split('\n')) {
    const match = LOCK_LINE.exec(line);
    if (!match) continue;
    const [, , pid, major, minor, inode, start, end] = match;
    if (Number(inode) !== shm.ino || parseInt(major!, 16) !== device.major || parseInt(minor!, 16) !== device.minor) continue;
    if (Number(start) > WAL_WRITE_LOCK_BYTE || (end !== 'EOF' && Number(end) < WAL_WRITE_LOCK_BYTE)) continue;
    if (Number(pid) === process.pid) return 'another connection in this process';
    // An OFD lock belongs to an open file, not a process: /proc/locks gives -1 for its pid.
    return Number(pid) > 0 ? describeProcess(Number(pid)) : null;
  }
  return null;
}

function describeProcess(pid: number): string {
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return command ? `process ${pid} (${command.length > 120 ? `${command.slice(0, 119)}…` : command})` : `process ${pid}`;
  } catch {
    return `process ${pid}`;
  }
}
