// Stage-thread entry point: a file is parsed, its blocks chunked and its passages extracted here,
// beside the main thread's event loop, so a job that takes minutes or gigabytes stalls only this
// thread, and the thread can be stopped (memory limit, timeout) without stopping the indexer.
// Bundled by esbuild as dist/stageThread.js; see ../../embed/workerThread.ts for how it is found.

import { parentPort } from 'node:worker_threads';
import { onOcrStart } from '../../parse/ocr.ts';
import { parseFile } from '../../parse/registry.ts';
import { ParseError, type Block } from '../../parse/types.ts';
import { passagesOf } from '../stages/chunk.ts';
import { EXTRACTION_CAPS } from '../../extract/caps.ts';
import { extractionOf } from '../stages/extract.ts';
import { lowerThisThreadsPriority } from './backgroundPriority.ts';
import type { StageJob, StageReply, StageRequest, StageResults } from './protocol.ts';

const WARM_UP_TEXT =
  'Ms. Carla Mendes of Harbourline Engineering Ltd (carla@example.com) said on 14 March 2025 that the refurbishment cost 42,000 EUR and took 30 days.';

const port = parentPort;
if (port === null) throw new Error('stageThread must run in a worker thread');
lowerThisThreadsPriority();

port.on('message', (request: StageRequest) => void handle(request));

/** The job this thread runs (one at a time), for the OCR notice. */
let current = 0;
onOcrStart(() => port!.postMessage({ kind: 'ocr', job: current } satisfies StageReply));

async function handle({ job, work }: StageRequest): Promise<void> {
  current = job;
  let reply: StageReply;
  try {
    reply = { kind: 'done', job, result: await perform(work) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    reply = { kind: 'failed', job, message, itemAtFault: error instanceof ParseError };
  }
  port!.postMessage(reply);
}

async function perform(work: StageJob): Promise<StageResults[StageJob['kind']]> {
  switch (work.kind) {
    case 'parse': {
      // The whole text is the blocks joined (parse/document.ts): sent once, as blocks, not twice.
      const { text: joined, ...document } = await parseFile(work.bytes, work.fileName, work.limits);
      void joined;
      return document;
    }
    case 'chunk':
      return passagesOf(work.workspace, work.itemId, work.contentHash, typeof work.blocks === 'string' ? (JSON.parse(work.blocks) as Block[]) : work.blocks);
    case 'extract':
      return extractionOf(work.title, work.chunks, work.headings, EXTRACTION_CAPS, work.document);
  }
}

// The extractors build their word lists and compile their patterns on first use, which takes
// hundreds of milliseconds on a loaded machine: done here, before the thread says it is ready, so
// a job's time limit measures the file's own work and a two-line note never times out.
extractionOf('Warm-up', [{ id: 'warm-up', text: WARM_UP_TEXT, headingPath: [] }]);

port.postMessage({ kind: 'ready' } satisfies StageReply);
