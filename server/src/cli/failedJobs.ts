// Jobs that failed for good during a command's run, and whether they fail the command. `index`
// and `reprocess` share one rule: a document that cannot be read or parsed is reported against its
// file and the run still succeeds, but a failure that is not the document's own (the store is
// damaged or full, or discovery could not finish, which no document causes) makes the command exit
// non-zero, so a script never mistakes a half-done run for a finished one.

import type { PipelineStage } from '../../../shared/types.ts';
import type { RunOptions } from '../engine/folderIndex.ts';
import { FAILURE_FAILS_ITEM } from '../pipeline/stages/index.ts';
import type { WorkspaceStore } from '../store/contract.ts';
import { terminalLine } from './terminalText.ts';

export interface FailedJob {
  stage: PipelineStage;
  /** The item's path when it could be read, else the job's subject (a path or an item id). */
  subject: string;
  error: string;
  /** The store failed, not the document (store/storeFault.ts). */
  store_fault: boolean;
}

export class FailedJobs {
  readonly jobs: FailedJob[] = [];

  /** Pass to FolderIndex's run options. */
  readonly onJobFailed: NonNullable<RunOptions['onJobFailed']> = (failure) => {
    this.jobs.push({ stage: failure.job.stage, subject: failure.job.subject, error: failure.error, store_fault: failure.storeFault });
  };

  /** True when some failure is not a document's own: the command must not report success. */
  get failRun(): boolean {
    return this.jobs.some((job) => job.store_fault || !FAILURE_FAILS_ITEM[job.stage]);
  }

  /** Item ids become paths where the store can still say them; a damaged store keeps the id. */
  async resolvePaths(store: WorkspaceStore): Promise<void> {
    for (const job of this.jobs) {
      if (job.stage === 'ingest') continue;
      const item = await store.getItem(job.subject).catch(() => null);
      if (item) job.subject = item.path;
    }
  }

  /**
   * What a person reads after the summary; empty when nothing failed. `shown` says which failures
   * the summary already lists (index's report names every failed file), so each is said once.
   */
  lines(shown: (job: FailedJob) => boolean = () => false): string[] {
    const unlisted = this.jobs.filter((job) => !shown(job));
    const lines = unlisted.length === 0 ? [] : [`${unlisted.length} job${unlisted.length === 1 ? '' : 's'} failed:`];
    for (const job of unlisted) lines.push(`  ${job.stage.padEnd(9)} ${terminalLine(job.subject)}: ${terminalLine(job.error)}`);
    if (this.failRun) {
      const faults = this.jobs.filter((job) => job.store_fault || !FAILURE_FAILS_ITEM[job.stage]).length;
      lines.push(`The run did not finish: ${faults} job${faults === 1 ? '' : 's'} failed for a reason that is not a document's own.`);
    }
    // The store's own damage messages already say what to do; a bare SQLite message does not.
    if (this.jobs.some((job) => job.store_fault && !job.error.includes('relata check'))) {
      lines.push('The store could not be read or written: `relata check` says what is damaged; `relata index --rebuild` rebuilds it from the folder.');
    }
    return lines;
  }
}
