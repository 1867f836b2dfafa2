// Run as its own process by test/unit/useLite-onnx.test.ts: closes a USE-lite embedder while a
// batch is being embedded on onnxruntime, at several moments into the batch. Terminating the
// thread there aborted the whole process (closeWorker.ts); closed properly, each close waits for
// the batch and this process ends normally, printing how each batch ended.

import { UseLiteEmbedder } from '../../server/src/embed/useLite/useLiteEmbedder.ts';

const texts = Array.from({ length: 64 }, (_, i) => `Passage ${i}: the gantry crane was refurbished by Example Ltd for 42,000 EUR after the inspection found cracks in the rail clamps. `.repeat(3));
const outcomes: string[] = [];
for (const delayMs of [0, 10, 50, 150]) {
  const embedder = await UseLiteEmbedder.start({ threads: 1 });
  const batch = embedder.embed(texts).then(
    () => 'embedded',
    (error: Error) => `rejected: ${error.message}`,
  );
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  await embedder.close();
  outcomes.push(await batch);
}
console.log(JSON.stringify({ outcomes }));
