// `relata check`: is the store damaged, and if so what and what to do. Exit 0 when healthy, 1 when
// any problem was found, each named with where it is and its remedy (store/sqlite/storeCheck.ts).

import { defaultWorkspace } from '../../engine/workspaceName.ts';
import { checkStore, type StoreCheckReport } from '../../store/sqlite/storeCheck.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { existingLocation } from '../openStore.ts';
import { terminalLine } from '../terminalText.ts';
import { EXIT_FAILURE, UsageError } from '../usage.ts';

export const checkCommand: Command = {
  name: 'check',
  summary: "check the store for damage: SQLite's integrity check, every blob's bytes, the vector tables",
  usage: `relata check [<folder>] [--data DIR] [--workspace NAME] [--json] [--quick] [--no-blobs]

  <folder>          the indexed folder whose store to check (default: the one containing the current directory)
  --quick           SQLite's quick_check (linear in the file) instead of the full integrity_check
  --no-blobs        do not read and hash the stored original files
  Exit status 0 when no damage was found, 1 when any was (each problem is named with what to do).
  SQLite stores only: a MongoDB + Qdrant store is checked with those servers' own tools.
${COMMON_USAGE}`,
  options: { ...COMMON_OPTIONS, quick: { type: 'boolean' }, 'no-blobs': { type: 'boolean' } },
  async run({ values, positionals, out }) {
    if (positionals.length > 1) throw new UsageError('check takes at most one folder');
    const location = existingLocation(values, positionals[0] ?? process.cwd());
    if (location.backend !== 'sqlite') {
      throw new UsageError(
        'relata check reads a SQLite store\'s file, blobs and vector tables; a MongoDB + Qdrant store has none of them here: ' +
          'check those servers with their own tools (MongoDB\'s validate, Qdrant\'s collection info), and `relata status` says whether they answer',
      );
    }
    const report = await checkStore({
      dataDir: location.dataDir,
      workspace: (values.workspace as string | undefined) ?? defaultWorkspace(),
      quick: Boolean(values.quick),
      blobs: !values['no-blobs'],
    });
    out(values.json ? JSON.stringify(report, null, 2) : formatCheck(report));
    return report.healthy ? 0 : EXIT_FAILURE;
  },
};

function formatCheck(report: StoreCheckReport): string {
  const { blobs, vector_tables: tables, vectors } = report.checked;
  const lines = [
    `${terminalLine(report.file)}: ${report.check}, ${blobs} blobs, ${tables} vector table(s) with ${vectors} vectors, in ${(report.elapsed_ms / 1000).toFixed(1)} s`,
  ];
  if (report.healthy) {
    lines.push('no damage found');
    return lines.join('\n');
  }
  lines.push(`damaged: ${report.problems.length} problem(s)`);
  for (const problem of report.problems) {
    lines.push(`  ${problem.kind.padEnd(13)} ${terminalLine(problem.where)}: ${terminalLine(problem.message)}`);
    if (problem.items?.length) lines.push(`                referred to by ${problem.items.map(terminalLine).join(', ')}`);
    if (problem.otherWorkspaceItems) lines.push(`                and by ${problem.otherWorkspaceItems} item(s) of other workspaces`);
  }
  // Many problems share a remedy (a damaged page shows in every index over it): each is said once.
  lines.push('what to do:', ...[...new Set(report.problems.map((problem) => problem.remedy))].map((remedy) => `  ${terminalLine(remedy)}`));
  return lines.join('\n');
}
