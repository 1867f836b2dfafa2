// Progress on a terminal: a bar on stderr while the queue drains, nothing when stderr is not a
// terminal (CI logs, pipes), so machine-readable output stays clean.

import cliProgress from 'cli-progress';
import type { Progress } from '../engine/folderIndex.ts';
import { terminalLine } from './terminalText.ts';

export interface ProgressReporter {
  update(progress: Progress): void;
  /** A line about slow work inside a job (the model stage's count and time left): on the bar; false when there is no bar to show it on. */
  note(text: string): boolean;
  stop(): void;
}

export function terminalProgress(label: string): ProgressReporter {
  if (!process.stderr.isTTY) return { update: () => undefined, note: () => false, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${label} [{bar}] {value}/{total} jobs | {stage} {subject}{note}`,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let note = '';
  return {
    update({ done, pending, last }) {
      const total = done + pending;
      // Ingest jobs are named by path; later stages by item id, which means nothing to a reader.
      // A file name goes straight to the terminal here (cli-progress writes it), so it is made inert first.
      const subject = last?.job.stage === 'ingest' ? terminalLine(last.job.subject.slice(-40)) : '';
      const payload = { stage: last?.job.stage ?? '', subject, note };
      if (!started) {
        bar.start(total, done, payload);
        started = true;
      }
      bar.setTotal(total);
      bar.update(done, payload);
    },
    note(text) {
      note = ` | ${terminalLine(text)}`;
      if (started) bar.update({ note });
      return true;
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
