// The workspace a process reads and writes when none is named: RELATA_WORKSPACE, else the OS
// user. Apart from the folder index so the `relata` launcher can name it without loading the engine.

import { userInfo } from 'node:os';

export function defaultWorkspace(): string {
  return process.env.RELATA_WORKSPACE || userInfo().username;
}
