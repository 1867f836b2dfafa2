// The queue searches wait in for a search thread (ranking/searchQueue.ts): a search cancelled while
// it waits never runs, identical waiting searches share one run, and no more run at once than the
// threads. The tasks are held open by promises the test releases, so every order is the test's.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SearchQueue } from '../../server/src/ranking/searchQueue.ts';

/** A task that records that it ran and answers when the test says so. */
function heldTask(ran: string[], name: string) {
  let release!: (answer: string) => void;
  const answer = new Promise<string>((resolve) => (release = resolve));
  return {
    task: async () => {
      ran.push(name);
      return answer;
    },
    release: () => release(name),
  };
}

test('a search cancelled while it waits for a thread never runs, and its asker is answered with the cancellation', async () => {
  const queue = new SearchQueue<string>(1);
  const ran: string[] = [];
  const first = heldTask(ran, 'first');
  const second = heldTask(ran, 'second');
  const third = heldTask(ran, 'third');
  const cancel = new AbortController();
  const firstAnswer = queue.run('a', first.task);
  const secondAnswer = queue.run('b', second.task, cancel.signal);
  const thirdAnswer = queue.run('c', third.task);
  cancel.abort(new Error('the editor cancelled it'));
  await assert.rejects(secondAnswer, /the editor cancelled it/);
  first.release();
  assert.equal(await firstAnswer, 'first');
  third.release();
  assert.equal(await thirdAnswer, 'third');
  assert.deepEqual(ran, ['first', 'third']);
  assert.deepEqual(queue.counts, { run: 2, shared: 0, cancelledBeforeRun: 1 });
});

test('identical searches waiting together run once and each asker gets the answer; one asker cancelling does not cancel the others', async () => {
  const queue = new SearchQueue<string>(1);
  const ran: string[] = [];
  const busy = heldTask(ran, 'busy');
  const same = heldTask(ran, 'same');
  const cancel = new AbortController();
  const busyAnswer = queue.run('other', busy.task);
  const answers = [queue.run('crane', same.task), queue.run('crane', same.task, cancel.signal), queue.run('crane', same.task)];
  cancel.abort(new Error('cancelled'));
  busy.release();
  await busyAnswer;
  same.release();
  const settled = await Promise.allSettled(answers);
  assert.deepEqual(settled.map((outcome) => outcome.status), ['fulfilled', 'rejected', 'fulfilled']);
  assert.deepEqual(ran, ['busy', 'same']);
  assert.deepEqual(queue.counts, { run: 2, shared: 2, cancelledBeforeRun: 0 });
});

test('no more searches run at once than the queue has threads; the next starts when one ends', async () => {
  const queue = new SearchQueue<string>(2);
  const ran: string[] = [];
  const tasks = ['one', 'two', 'three'].map((name) => heldTask(ran, name));
  const answers = tasks.map((held, n) => queue.run(String(n), held.task));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(ran, ['one', 'two']);
  tasks[1]!.release();
  await answers[1];
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(ran, ['one', 'two', 'three']);
  tasks[0]!.release();
  tasks[2]!.release();
  assert.deepEqual(await Promise.all(answers), ['one', 'two', 'three']);
});

test('a running search is told to stop when its last asker cancels', async () => {
  const queue = new SearchQueue<string>(1);
  let seen: AbortSignal | undefined;
  const cancel = new AbortController();
  const answer = queue.run(
    'slow',
    (signal) =>
      new Promise<string>((_, reject) => {
        seen = signal;
        signal.addEventListener('abort', () => reject(signal.reason));
      }),
    cancel.signal,
  );
  cancel.abort(new Error('typed on'));
  await assert.rejects(answer, /typed on/);
  assert.equal(seen?.aborted, true);
});
