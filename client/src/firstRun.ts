// Relata's walkthrough opened once, on the first start after installation: VS Code opens its own
// welcome page then, and a person new to Relata should meet Relata's steps, not the editor's.
// A flag in the global state keeps it to once per machine (not once per folder).

import * as vscode from 'vscode';

/** `publisher.name#walkthrough id`, as package.json declares them. */
export const WALKTHROUGH = 'relata.relata#relata.firstRun';
const SHOWN = 'relata.walkthroughShown';

export async function openWalkthroughOnFirstStart(state: vscode.Memento): Promise<void> {
  if (state.get<boolean>(SHOWN)) return;
  await state.update(SHOWN, true);
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
}
