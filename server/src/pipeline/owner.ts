// Who holds a lease. An owner names its host and process, so a restarted indexer can hand back
// at once the leases of a local process that died (SIGKILL, crash) instead of waiting for them
// to expire. Leases of other hosts, or of processes still alive, are left to expire as usual.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

export function newOwnerId(): string {
  return `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`;
}

export function isDeadLocalOwner(owner: string): boolean {
  const [host, pidText] = owner.split('/');
  const pid = Number(pidText);
  if (host !== hostname() || !Number.isInteger(pid) || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
