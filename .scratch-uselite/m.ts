import { Worker } from 'node:worker_threads';
console.log('execArgv', process.execArgv);
const w = new Worker(new URL('./w.ts', import.meta.url));
w.on('message', (m) => { console.log('msg', m); w.terminate(); });
w.on('error', (e) => console.log('error', e.message));
