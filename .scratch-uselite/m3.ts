import { Worker } from 'node:worker_threads';
const url = new URL('./w.ts', import.meta.url).href;
const variants: Array<[string, () => Worker]> = [
  ['eval import, inherited', () => new Worker(`import(${JSON.stringify(url)})`, { eval: true })],
  ['eval tsx api register', () => new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url)}); })`, { eval: true, execArgv: [] })],
  ['data: url entry', () => new Worker(new URL(`data:text/javascript,import ${JSON.stringify(url)};`), {})],
];
for (const [name, make] of variants) {
  await new Promise<void>((resolve) => {
    const t = performance.now();
    const w = make();
    w.on('message', (m) => { console.log(name, 'msg', m, (performance.now() - t).toFixed(0), 'ms'); w.terminate(); resolve(); });
    w.on('error', (e) => { console.log(name, 'error', e.message); resolve(); });
  });
}
