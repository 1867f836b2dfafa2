// `relata search` answered by the language server that already has the same store open (the
// VS Code extension's `relata serve`), before the command line is loaded at all: a cold search
// then costs Node's start, a connection and the printing, not the query model's load and the
// store's (docs/PERFORMANCE.md "Cold start"). Anything short of a valid answer for the very store
// the command would open (its flags, the environment, the current directory) leaves the search
// to the command itself, which also prints any usage error: this never fails a search.

import { defaultWorkspace } from '../engine/workspaceName.ts';
import { expansionSettingsFromEnv } from '../ranking/weights.ts';
import { askRunningServer } from '../searchSocket/ask.ts';
import type { CommandValues } from './command.ts';
import { readCommandLine } from './commandLine.ts';
import { SEARCH_OPTIONS, searchArguments } from './searchArgs.ts';
import { searchOutput } from './searchText.ts';
import { existingStoreLocation, storeChoice } from './storeFlags.ts';
import { terminalText } from './terminalText.ts';

/** True when a running server answered and the answer is printed; false to search in this process. */
export async function searchedByRunningServer(args: readonly string[]): Promise<boolean> {
  let values: CommandValues;
  let search: ReturnType<typeof searchArguments>;
  let location: ReturnType<typeof existingStoreLocation>;
  try {
    const parsed = readCommandLine(args, SEARCH_OPTIONS);
    values = parsed.values;
    if (values.help || values['no-server']) return false;
    search = searchArguments(values, parsed.positionals);
    location = existingStoreLocation(storeChoice(values), process.cwd());
  } catch {
    return false;
  }
  const workspace = (values.workspace as string | undefined) ?? defaultWorkspace();
  const response = await askRunningServer(
    { location, workspace, embedding: search.embedding },
    { query: search.query, limit: search.limit, rankVersion: search.rankVersion, expansion: expansionSettingsFromEnv(search.confirmedOnly) },
  );
  if (response === null) return false;
  // As main.ts prints: through terminalText, so no document's control characters reach the terminal.
  process.stdout.write(`${terminalText(searchOutput(response, values.json === true, { all: values.all === true }))}\n`);
  return true;
}
