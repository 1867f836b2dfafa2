// What the status bar says about the folders' indexing, from one `relata/status` report: a
// short text while working (steps left), coverage when settled, failures called out. Pure, so
// the wording is tested without VS Code.

import type { FolderStatus, StatusReport } from '../../shared/protocol.ts';
import type { StoreBackend } from '../../shared/storeEnvironment.ts';

export interface StatusSummary {
  text: string;
  tooltip: string;
  /** True while any folder is opening or indexing. */
  busy: boolean;
  /** True when a folder could not be indexed at all, or files failed. */
  warning: boolean;
}

const STORE_NAMES: Record<StoreBackend, string> = { sqlite: 'SQLite', 'mongodb-qdrant': 'MongoDB + Qdrant' };

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

function folderLine(folder: FolderStatus): string {
  const { indexed, failed, skipped, duplicate, pending } = folder.items;
  const state =
    folder.state === 'failed'
      ? `not indexed: ${folder.reason ?? 'unknown reason'}`
      : folder.state === 'opening'
        ? 'opening its index' + waiting(folder)
        : folder.state === 'indexing'
          ? `indexing, ${plural(folder.queueDepth, 'step')} left` + waiting(folder)
          : 'up to date, watching for changes';
  const coverage =
    folder.embeddingModel === null
      ? 'semantic search off (no embedding model)'
      : `vectors for ${folder.embeddedChunks} of ${folder.chunks} passages (${folder.embeddingModel})`;
  const store = folder.store;
  return [
    `${folder.name}: ${state}`,
    ...(folder.damage ? [`  ${folder.damage}`] : []),
    ...(store?.unreachable ? [`  store unreachable: ${store.unreachable}; the work is kept and retried until it answers`] : []),
    ...(store ? [`  store: ${STORE_NAMES[store.backend]}, ${store.where}`] : []),
    `  ${indexed} indexed, ${failed} failed, ${skipped} skipped, ${duplicate} duplicates, ${pending} pending`,
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
  // Damage outranks progress: what is served may be wrong until the store is checked or rebuilt.
  const damaged = folders.filter((folder) => folder.damage).length;
  // A store server that does not answer comes next: nothing moves until it is back.
  const unreachable = folders.filter((folder) => folder.store?.unreachable).length;
  const text = damaged
    ? `$(error) Relata: store damaged` + (folders.length > 1 ? ` (${plural(damaged, 'folder')})` : '')
    : unreachable
    ? `$(debug-disconnect) Relata: store unreachable` + (folders.length > 1 ? ` (${plural(unreachable, 'folder')})` : '')
    : busy
    ? `$(sync~spin) Relata: indexing (${plural(sum((folder) => folder.queueDepth), 'step')} left)`
    : `$(${broken || failed ? 'warning' : 'database'}) Relata: ${indexed} indexed` + (failed ? `, ${failed} failed` : '') + (broken ? `, ${plural(broken, 'folder')} unavailable` : '');
  return {
    text,
    tooltip: `${folders.map(folderLine).join('\n')}\n\nClick for the status of every file.`,
    busy,
    warning: damaged > 0 || unreachable > 0 || broken > 0 || failed > 0,
  };
}
