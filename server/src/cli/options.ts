// The parsed form of a command's flags, apart from the Command shape (command.ts) so that the
// modules that read groups of flags (storeFlags.ts, modelFlags.ts) sit below the commands that
// list them, not beside them in a circle.

import type { ParseArgsConfig } from 'node:util';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export type CommandValues = Record<string, string | boolean | string[] | undefined>;
