import { chunkBlocks } from '../server/src/chunk/chunker.ts';
import { packWindows } from '../server/src/embed/windows.ts';
import { loadVocabulary } from '../server/src/embed/useLite/modelFiles.ts';
import { UseLiteTokenizer } from '../server/src/embed/useLite/tokenizer.ts';
import { loadAbstracts } from '../test/support/scifact.ts';
const tok = new UseLiteTokenizer(loadVocabulary());
const count = (t: string) => tok.countTokens(t);
const seg = new Intl.Segmenter('en', { granularity: 'sentence' });
let single = 0, multi = 0, multiExcess: number[] = [], sumVsJoined = { under: 0, over: 0, equal: 0 }, windows = 0;
let t = performance.now();
for (const d of loadAbstracts()) {
  const chunks = chunkBlocks([
    { kind: 'heading', text: d.title, headingPath: [d.title], location: { kind: 'lines', start: 1, end: 1 } },
    { kind: 'paragraph', text: d.text, headingPath: [d.title], location: { kind: 'lines', start: 3, end: 3 } },
  ]);
  for (const c of chunks) for (const w of packWindows(c.text, 128, count)) {
    windows++;
    const sentences = [...seg.segment(w.text)].map((s) => s.segment);
    const sum = sentences.reduce((a, s) => a + count(s), 0);
    const joined = count(w.text);
    if (sum === joined) sumVsJoined.equal++; else if (sum > joined) sumVsJoined.over++; else sumVsJoined.under++;
    if (joined > 128) { if (sentences.length === 1) single++; else { multi++; multiExcess.push(joined - 128); } }
  }
}
console.log({ windows, single, multi, maxExcess: Math.max(0, ...multiExcess), sumVsJoined, ms: performance.now() - t });
