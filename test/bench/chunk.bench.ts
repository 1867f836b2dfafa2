// npm run bench:chunk — what chunking costs on the texts that once made it quadratic (issue 12):
// one-line text files of 1 to 49 MB with and without sentence punctuation, abbreviation-heavy
// text, a 10 MB token without spaces, and, for scale, an ordinary multi-paragraph document. Time
// per MB should stay flat as the size grows. Inputs up to 8 MB are timed best of 3, larger ones
// once. Prints figures; asserts nothing (test/unit/chunker.test.ts asserts linearity on small sizes).

import { cpus, totalmem } from 'node:os';
import { chunkBlocks } from '../../server/src/chunk/chunker.ts';
import type { Block } from '../../server/src/parse/types.ts';
import { seededRandom } from '../support/generateCorpus.ts';
import {
  abbreviationHeavy,
  hugeToken,
  lineOfSentences,
  lineWithoutPunctuation,
} from '../support/hostileText.ts';

const MB = 1024 * 1024;

interface Input {
  name: string;
  blocks: () => Block[];
}

function oneLine(text: string): Block[] {
  return [{ kind: 'paragraph', text, headingPath: [], location: { kind: 'lines', start: 1, end: 1 } }];
}

/** Sections of a heading and paragraphs of 40-120 words in sentences of 6-20, as a report reads. */
function ordinaryDocument(bytes: number): Block[] {
  const random = seededRandom(12);
  const vocabulary = 'the crane bay inspection supplier forklift north gate report chain mast load test hydraulic pressure operator shift maintenance schedule replaced worn found during annual review safety'.split(' ');
  const word = (): string => vocabulary[Math.floor(random() * vocabulary.length)]!;
  const sentence = (): string => {
    const words = Array.from({ length: 6 + Math.floor(random() * 15) }, word);
    words[0] = words[0]![0]!.toUpperCase() + words[0]!.slice(1);
    return `${words.join(' ')}.`;
  };
  const blocks: Block[] = [];
  let size = 0;
  let line = 1;
  let heading: string[] = [];
  while (size < bytes) {
    if (blocks.length % 6 === 0) {
      const title = `Section ${blocks.length / 6 + 1}`;
      heading = [title];
      blocks.push({ kind: 'heading', text: title, headingPath: heading, location: { kind: 'lines', start: line, end: line } });
      line += 2;
    }
    const sentences: string[] = [];
    for (let words = 0, target = 40 + random() * 80; words < target; words += sentences[sentences.length - 1]!.split(' ').length) {
      sentences.push(sentence());
    }
    const text = sentences.join(' ');
    blocks.push({ kind: 'paragraph', text, headingPath: heading, location: { kind: 'lines', start: line, end: line } });
    size += text.length;
    line += 2;
  }
  return blocks;
}

const INPUTS: Input[] = [
  ...[1, 4, 16, 49].map((mb) => ({ name: `one line, no punctuation, ${mb} MB`, blocks: () => oneLine(lineWithoutPunctuation(mb * MB)) })),
  ...[1, 4, 16, 49].map((mb) => ({ name: `one line of sentences, ${mb} MB`, blocks: () => oneLine(lineOfSentences(mb * MB)) })),
  ...[0.5, 4].map((mb) => ({ name: `abbreviation-heavy, ${mb * 1024} KB`, blocks: () => oneLine(abbreviationHeavy(mb * MB)) })),
  { name: 'one 10 MB token, no whitespace', blocks: () => oneLine(hugeToken(10 * MB)) },
  { name: 'ordinary document, 4 MB in 100-word paragraphs', blocks: () => ordinaryDocument(4 * MB) },
];

function chars(blocks: Block[]): number {
  let n = 0;
  for (const b of blocks) n += b.text.length;
  return n;
}

console.log(`Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`);
chunkBlocks(oneLine(lineOfSentences(MB / 4))); // warm up the JIT and ICU
console.log('| input | chunks | time | per MB |');
console.log('|---|---:|---:|---:|');
for (const input of INPUTS) {
  const blocks = input.blocks();
  const mb = chars(blocks) / MB;
  let chunks = 0;
  let ms = Infinity;
  for (let run = 0; run < (mb <= 8 ? 3 : 1); run++) {
    const start = performance.now();
    chunks = chunkBlocks(blocks).length;
    ms = Math.min(ms, performance.now() - start);
  }
  console.log(`| ${input.name} | ${chunks.toLocaleString('en')} | ${(ms / 1000).toFixed(2)} s | ${(ms / mb).toFixed(0)} ms |`);
}
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
