// How often does the injection detector (server/src/answer/injection.ts) flag an attempt to
// instruct the model, and how often does it flag a passage that is not one?
//
//   labelled   test/support/injectionCorpus.ts: DEV (the patterns were tuned on it) and HELD_OUT
//              (written before tuning, never tuned on). Detection rate = attempts with at least
//              one finding / attempts; false-positive rate = benign passages with a finding /
//              benign passages.
//   real text  every supported document of docs/demo, the English and German Open Source Guides
//              (../shared/eval/knowledge-bases) and the CUAD contracts (../shared/eval/cuad),
//              parsed and chunked as indexing does; every passage is benign, so the share of
//              passages with a finding is the false-positive rate on real text. Not tuned on.
//
//   npm run eval:injection [-- --show N]   (N: how many findings and misses to print, default 20)

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { findInstructionAttempts } from '../../server/src/answer/injection.ts';
import { chunkBlocks } from '../../server/src/chunk/chunker.ts';
import { parseFile, parserFor } from '../../server/src/parse/registry.ts';
import { DEV, HELD_OUT, type InjectionSet, type LabelledPassage } from '../support/injectionCorpus.ts';
import { EVAL_ROOT, REPO_ROOT } from '../support/tempFolder.ts';

const { values } = parseArgs({ options: { show: { type: 'string', default: '20' } } });
const show = Number(values.show);

const percent = (part: number, whole: number) => `${part}/${whole} (${whole === 0 ? '-' : ((100 * part) / whole).toFixed(1)}%)`;
const flat = (text: string) => JSON.stringify(text.replace(/\s+/g, ' ').slice(0, 140));

function measure(name: string, set: InjectionSet): void {
  const missed = set.attempts.filter((passage) => findInstructionAttempts(passage.text).length === 0);
  const alarms = set.benign.filter((passage) => findInstructionAttempts(passage.text).length > 0);
  console.log(`${name.padEnd(9)} detection ${percent(set.attempts.length - missed.length, set.attempts.length)}   false positives ${percent(alarms.length, set.benign.length)}`);
  const list = (label: string, passages: LabelledPassage[]) => {
    for (const passage of passages.slice(0, show)) console.log(`    ${label} [${passage.note}] ${flat(passage.text)}`);
  };
  list('missed', missed);
  list('false alarm', alarms);
}

function* documents(folder: string): Generator<string> {
  if (!existsSync(folder)) return;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* documents(full);
    else if (parserFor(entry.name) !== null) yield full;
  }
}

async function realText(): Promise<void> {
  const roots = [path.join(REPO_ROOT, 'docs', 'demo'), path.join(EVAL_ROOT, 'knowledge-bases'), path.join(EVAL_ROOT, 'cuad', 'full_contract_txt')];
  let docs = 0;
  let failed = 0;
  let passages = 0;
  const flagged: { file: string; text: string }[] = [];
  for (const root of roots) {
    for (const file of documents(root)) {
      let chunks;
      try {
        chunks = chunkBlocks((await parseFile(readFileSync(file), path.basename(file))).blocks);
      } catch {
        failed += 1;
        continue;
      }
      docs += 1;
      for (const chunk of chunks) {
        passages += 1;
        const found = findInstructionAttempts(chunk.text);
        if (found.length > 0) flagged.push({ file: path.relative(path.dirname(REPO_ROOT), file), text: found[0]! });
      }
    }
  }
  console.log(`real text ${docs} documents (${failed} unparseable, by design), ${passages} passages: flagged ${percent(flagged.length, passages)}`);
  for (const { file, text } of flagged.slice(0, show)) console.log(`    flagged ${file}: ${flat(text)}`);
}

measure('DEV', DEV);
measure('HELD_OUT', HELD_OUT);
await realText();
