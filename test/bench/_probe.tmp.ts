// temporary probe: time of each store write on the main thread, and VmHWM after each stage
import { readFileSync } from 'node:fs';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
const hwm = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
const [folder, dataDir] = process.argv.slice(2) as [string, string];
const index = await FolderIndex.open({ folder, dataDir, workspace: 'bench', embedding: { kind: 'none' } });
await index.drain();
const store = index.store as any;
for (const name of ['recordParse', 'replaceChunks', 'storeExtraction', 'listChunks', 'getStoredBlocks']) {
  const original = store[name];
  if (typeof original !== 'function') continue;
  store[name] = async (...args: unknown[]) => {
    console.log('before', name, hwm().toFixed(0));
    const t = performance.now();
    const r = await original.apply(store, args);
    console.log(name, ((performance.now() - t) / 1000).toFixed(2), 's, HWM', hwm().toFixed(0));
    return r;
  };
}
await index.index({ onProgress: ({ last }) => { if (last?.type === 'job-finished') console.log('job', last.job.stage, (last.elapsedMs / 1000).toFixed(1), 's HWM', hwm().toFixed(0)); } });
await index.close();
