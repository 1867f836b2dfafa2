// Waits for something a watcher or a server does in its own time, polling, and fails the test
// with what was awaited when it does not happen: the one way tests wait for asynchronous effects.

import assert from 'node:assert/strict';

export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`timed out waiting until ${what}`);
}
