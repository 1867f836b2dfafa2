// Run as its own process by the two-worker test in jobQueue.test.ts: opens the store at a location
// (JSON in the environment, not the command line, where a connection string's password would
// show in the process list), prints "ready", waits for "go" on stdin so both workers start
// together, then claims and completes jobs until none is left, each after a moment of "work" so
// the two interleave, and prints the ids it claimed as one JSON line.
//   usage: RELATA_TEST_WORKER_LOCATION=<location JSON> claimingWorker.ts <workspace> <owner>

import { createInterface } from 'node:readline';
import { openStoreWithBlobs } from '../../server/src/store/index.ts';
import type { StoreLocation } from '../../server/src/store/location.ts';

const locationJson = process.env.RELATA_TEST_WORKER_LOCATION;
const [workspace, owner] = process.argv.slice(2);
if (!locationJson || !workspace || !owner) throw new Error('usage: RELATA_TEST_WORKER_LOCATION=<location JSON> claimingWorker.ts <workspace> <owner>');

const { store } = await openStoreWithBlobs({ location: JSON.parse(locationJson) as StoreLocation, workspace });
process.stdout.write('ready\n');
await new Promise((resolve) => createInterface({ input: process.stdin }).once('line', resolve));

const claimed: number[] = [];
for (let job = await store.claim(owner, 60_000); job; job = await store.claim(owner, 60_000)) {
  claimed.push(job.id);
  await new Promise((resolve) => setTimeout(resolve, 2));
  await store.complete(job, owner);
}
await store.close();
process.stdout.write(`${JSON.stringify(claimed)}\n`);
process.exit(0);
