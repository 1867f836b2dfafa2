import { Worker } from 'node:worker_threads';
for (const execArgv of [undefined, ['--import', 'tsx'], ['--import', 'tsx/esm'], ['--import', import.meta.resolve('tsx')]]) {
  await new Promise<void>((resolve) => {
    const w = new Worker(new URL('./w.ts', import.meta.url), execArgv ? { execArgv } : {});
    w.on('message', (m) => { console.log(execArgv, 'msg', m); w.terminate(); resolve(); });
    w.on('error', (e) => { console.log(execArgv, 'error', e.message); resolve(); });
  });
}
