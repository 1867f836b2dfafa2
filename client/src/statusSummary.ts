// What the status bar says about the folders' indexing, from one `relata/status` report: while
// working, how many files and what is being done to them ("indexing 26 files"); coverage when
// settled, failures called out; where each folder's store is. Pure, so the wording is tested
// without VS Code.

import { describeDuration } from '../../shared/duration.ts';
import type { FolderStatus, FolderWork, ModelExtractionStatus, StatusReport } from '../../shared/protocol.ts';
import type { StoreBackend } from '../../shared/storeEnvironment.ts';
import { UNREAD_WORDS } from '../../shared/unreadFiles.ts';
import { describeWork, plural } from '../../shared/workText.ts';

export interface StatusSummary {
  text: string;
  tooltip: string;
  /** True while any folder is opening or indexing. */
  busy: boolean;
  /** True when a folder could not be indexed at all, or files failed. */
  warning: boolean;
}

const STORE_NAMES: Record<StoreBackend, string> = { sqlite: 'SQLite', 'mongodb-qdrant': 'MongoDB + Qdrant' };

export { describeWork, plural };

/** The model stage's progress: "the model has read 12 passages (3 from its cache); about 4 min left". */
export function describeModelExtraction(progress: ModelExtractionStatus): string {
  const left = progress.msLeft === null ? '' : `; about ${describeDuration(progress.msLeft)} left`;
  return `model extraction: ${plural(progress.calls, 'call')}, ${progress.cached} from the cache${left}`;
}

function folderLine(folder: FolderStatus): string {
  const { indexed, failed, skipped, duplicate, pending, unread = 0 } = folder.items;
  const state =
    folder.state === 'failed'
      ? `not indexed: ${folder.reason ?? 'unknown reason'}`
      : folder.state === 'opening'
        ? 'opening its index' + waiting(folder)
        : folder.state === 'indexing'
          ? describeWork(folder.work) + waiting(folder)
          : folder.state === 'paused'
            ? 'indexing paused; changes are picked up when you resume (Relata: Resume Indexing)'
            : 'up to date, watching for changes';
  const coverage =
    folder.embeddingModel === null
      ? 'semantic search off (no embedding model)'
      : `vectors for ${folder.embeddedChunks} of ${folder.chunks} passages (${folder.embeddingModel})`;
  const store = folder.store;
  return [
    `${folder.name}: ${state}`,
    ...(folder.modelExtraction ? [`  ${describeModelExtraction(folder.modelExtraction)}`] : []),
    ...(folder.damage ? [`  ${folder.damage}`] : []),
    ...(store?.unreachable ? [`  store unreachable: ${store.unreachable}; the work is kept and retried until it answers`] : []),
    ...(store ? [`  store: ${STORE_NAMES[store.backend]}, ${store.where}`] : []),
    `  ${indexed} indexed, ${unread ? `${unread} with ${UNREAD_WORDS}, ` : ''}${failed} failed, ${skipped} skipped, ${plural(duplicate, 'duplicate')}, ${pending} pending`,
    `  ${plural(folder.chunks, 'passage')}; ${coverage}`,
  ].join('\n');
}

/** What the folder waits for; an unreachable store has a line of its own, so it is not said twice. */
function waiting(folder: FolderStatus): string {
  return folder.reason && !folder.store?.unreachable ? `; waiting: ${folder.reason}` : '';
}

export function summarizeStatus(report: StatusReport | null): StatusSummary {
  if (!report) return { text: '$(sync~spin) Relata: starting', tooltip: 'Relata: starting the language server', busy: true, warning: false };
  if (report.folders.length === 0) {
    return { text: '$(database) Relata: no folder', tooltip: 'Relata: open a folder to index it', busy: false, warning: false };
  }
  const folders = report.folders;
  const busy = folders.some((folder) => folder.state === 'opening' || folder.state === 'indexing');
  const sum = (pick: (folder: FolderStatus) => number) => folders.reduce((total, folder) => total + pick(folder), 0);
  const failed = sum((folder) => folder.items.failed);
  const broken = folders.filter((folder) => folder.state === 'failed').length;
  const indexed = sum((folder) => folder.items.indexed);
  const unread = sum((folder) => folder.items.unread ?? 0);
  const paused = folders.filter((folder) => folder.state === 'paused').length;
  const work: FolderWork = {
    reading: sum((folder) => folder.work.reading),
    extracting: sum((folder) => folder.work.extracting),
    embedding: sum((folder) => folder.work.embedding),
    relating: sum((folder) => folder.work.relating),
  };
  // Damage outranks progress: what is served may be wrong until the store is checked or rebuilt.
  const damaged = folders.filter((folder) => folder.damage).length;
  // A store server that does not answer comes next: nothing moves until it is back.
  const unreachable = folders.filter((folder) => folder.store?.unreachable).length;
  const text = damaged
    ? `$(error) Relata: store damaged` + (folders.length > 1 ? ` (${plural(damaged, 'folder')})` : '')
    : unreachable
    ? `$(debug-disconnect) Relata: store unreachable` + (folders.length > 1 ? ` (${plural(unreachable, 'folder')})` : '')
    : busy
    ? `$(sync~spin) Relata: ${describeWork(work, true)}${modelTimeLeft(folders)}`
    : paused
    ? `$(debug-pause) Relata: paused` + (folders.length > 1 ? ` (${plural(paused, 'folder')})` : '')
    : `$(${broken || failed || unread ? 'warning' : 'database'}) Relata: ${indexed} indexed` +
      (unread ? `, ${unread} with ${UNREAD_WORDS}` : '') +
      (failed ? `, ${failed} failed` : '') +
      (broken ? `, ${plural(broken, 'folder')} unavailable` : '');
  return {
    text,
    tooltip: `${folders.map(folderLine).join('\n')}\n\nClick for the status of every file.`,
    busy,
    warning: damaged > 0 || unreachable > 0 || broken > 0 || failed > 0 || unread > 0,
  };
}

/** The longest time the model stage still expects to take in any folder, for the status bar: " (model: about 4 min left)". */
function modelTimeLeft(folders: readonly FolderStatus[]): string {
  const left = folders.map((folder) => folder.modelExtraction?.msLeft ?? null).filter((ms): ms is number => ms !== null);
  return left.length === 0 ? '' : ` (model: about ${describeDuration(Math.max(...left))} left)`;
}

/** What Index now, Pause or Resume did, for one message: the outcome alone for one folder, each folder named for several. */
export function describeOutcomes(folders: readonly { name: string; outcome: string }[]): string {
  if (folders.length === 0) return 'Relata: no folder is open';
  if (folders.length === 1) return `Relata: ${folders[0]!.outcome}`;
  return `Relata: ${folders.map((folder) => `${folder.name}: ${folder.outcome}`).join('; ')}`;
}
