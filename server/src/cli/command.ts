// The shape of a `relata` command. Commands are rows in a table (see main.ts): adding one
// means writing a module that exports a Command and listing it there.

import type { CommandValues, OptionSpec } from './options.ts';
import { STORE_OPTIONS, STORE_USAGE } from './storeFlags.ts';

export type { CommandValues, OptionSpec } from './options.ts';

export interface CommandInput {
  values: CommandValues;
  positionals: string[];
  /** Progress and logs go here (stderr); stdout is reserved for results. */
  log: (line: string) => void;
  out: (text: string) => void;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: OptionSpec;
  run(input: CommandInput): Promise<number>;
}

/** Options every command accepts. */
export const COMMON_OPTIONS: OptionSpec = {
  data: { type: 'string' },
  ...STORE_OPTIONS,
  workspace: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

export const COMMON_USAGE = `  --data DIR        SQLite store directory (default: one per folder under the user's data home)
${STORE_USAGE}
  --workspace NAME  workspace to read and write (default: the OS user)
  --json            print exactly one JSON document on stdout
  -h, --help        show this help`;
