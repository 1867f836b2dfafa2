// The pipeline's threads yield the cores to the threads that answer a person: on Linux, where a
// nice value is per thread, the stage threads (parse, chunk, extract), the discovery threads and the
// pipeline's embedding model run at BACKGROUND_NICE, while the thread that reads requests and a
// query's model keep their priority.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { createEmbedder } from '../../server/src/embed/choice.ts';
import { FolderIndex } from '../../server/src/engine/folderIndex.ts';
import { BACKGROUND_NICE } from '../../server/src/pipeline/threads/backgroundPriority.ts';
import { tempDir, writeFiles } from '../support/tempFolder.ts';

/** Each thread of this process: its nice value (field 19 of /proc/self/task/<tid>/stat). */
function threadNiceValues(): Map<number, number> {
  const nice = new Map<number, number>();
  for (const task of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      nice.set(Number(task), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended while it was read.
    }
  }
  return nice;
}

const linux = process.platform === 'linux';

test(
  'stage and discovery threads run at the background priority; the thread that answers requests keeps its own',
  { skip: linux ? false : 'a nice value per thread is Linux behaviour (elsewhere the priority is left alone)', timeout: 5 * 60_000 },
  async (t) => {
    const own = getPriority(0);
    const root = tempDir(t, 'relata-priority-');
    const folder = writeFiles(path.join(root, 'folder'), {
      'a.md': '# Crane audit\n\nCarla Mendes audited the gantry crane GC-2 on 14 March 2025.\n',
      'b.md': '# Crane repairs\n\nCarla Mendes ordered repairs to the gantry crane GC-2.\n',
    });
    const before = new Set(threadNiceValues().keys());
    const index = await FolderIndex.open({ folder, dataDir: path.join(root, 'data'), workspace: 'priority', embedding: { kind: 'none' }, discoveryThread: true });
    t.after(() => index.close());
    await index.index();
    // The run's threads are still there: stage threads stay for the next job, discovery threads until close.
    const started = [...threadNiceValues()].filter(([task]) => !before.has(task));
    const background = started.filter(([, nice]) => nice >= Math.max(own, BACKGROUND_NICE));
    assert.ok(background.length >= 2, `at least a stage thread and a discovery thread at nice ${BACKGROUND_NICE}: ${JSON.stringify(started)}`);
    assert.equal(threadNiceValues().get(process.pid), own, 'the main thread keeps its priority');
  },
);

test(
  'the pipeline’s embedding model runs at the background priority; a query’s model keeps the priority of the thread that asks',
  { skip: linux ? false : 'a nice value per thread is Linux behaviour (elsewhere the priority is left alone)', timeout: 5 * 60_000 },
  async (t) => {
    const own = getPriority(0);
    const startedBy = async (background: boolean) => {
      const before = new Set(threadNiceValues().keys());
      const embedder = (await createEmbedder({ kind: 'use-lite', threads: 1 }, { background }))!;
      t.after(() => embedder.close());
      // Embedding once: onnxruntime starts what threads it starts by then.
      assert.equal((await embedder.embed(['The gantry crane passed its inspection.']))[0]!.length, embedder.descriptor.dims);
      return [...threadNiceValues()].filter(([task]) => !before.has(task));
    };
    const query = await startedBy(false);
    assert.ok(query.length >= 1, 'the model runs in a thread of its own');
    assert.deepEqual(query.filter(([, nice]) => nice !== own), [], 'a query’s model keeps the priority of the thread that asks');
    const pipeline = await startedBy(true);
    assert.ok(
      pipeline.some(([, nice]) => nice >= Math.max(own, BACKGROUND_NICE)),
      `the pipeline's model thread at nice ${BACKGROUND_NICE}: ${JSON.stringify(pipeline)}`,
    );
  },
);
