// Run as its own process by test/unit/useLite-onnx.test.ts: starts and closes a one-thread USE-lite
// embedder three times and prints each one's engines as JSON. A process of its own, because what
// it checks (onnxruntime's binding loading again after every thread that held it is gone) depends
// on nothing else in the process having loaded onnxruntime.

import { UseLiteEmbedder } from '../../server/src/embed/useLite/useLiteEmbedder.ts';

const engines: string[][] = [];
const fallbacks: string[] = [];
for (let i = 0; i < 3; i++) {
  const embedder = await UseLiteEmbedder.start({ threads: 1, log: (line) => fallbacks.push(line) });
  engines.push(embedder.engines());
  await embedder.close();
}
console.log(JSON.stringify({ engines, fallbacks }));
