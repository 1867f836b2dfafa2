// Reads a command's arguments against its options, and says what is wrong with them in one line a
// person can act on: the option not known, with the one it was probably meant to be; the option
// that needs a value; the switch that takes none. Node's own parseArgs messages name the option
// between unbalanced quotes and suggest `--` tricks a user rarely wants.

import { parseArgs } from 'node:util';
import { didYouMean } from './closestName.ts';
import type { CommandValues, OptionSpec } from './command.ts';
import { UsageError } from './usage.ts';

export interface CommandLine {
  values: CommandValues;
  positionals: string[];
}

/** The values and positionals of `args`; a UsageError in words when they do not fit `options`. */
export function readCommandLine(args: readonly string[], options: OptionSpec): CommandLine {
  try {
    const { values, positionals } = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    return { values: values as CommandValues, positionals };
  } catch (error) {
    if (!(error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) throw error;
    throw new UsageError(whatIsWrong(args, options) ?? (error as Error).message.split('\n')[0]!);
  }
}

/** True when --help (or -h) is among the options, before any `--`: help wins over every other mistake. */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

function whatIsWrong(args: readonly string[], options: OptionSpec): string | null {
  const { tokens } = parseArgs({ args: [...args], options, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const spec = options[token.name];
    if (!spec) {
      // A long option is matched by name; a one-letter slip (-x for -h) is too short to guess from.
      const hint = token.rawName.startsWith('--') ? didYouMean(token.name, Object.keys(options), (name) => `--${name}`) : '';
      return `unknown option ${token.rawName}${hint}`;
    }
    if (spec.type === 'string' && token.value === undefined) return `${token.rawName} needs a value`;
    if (spec.type === 'string' && !token.inlineValue && token.value!.startsWith('-')) {
      return `${token.rawName} needs a value, and ${token.value} is an option: a value that starts with "-" is written ${token.rawName}=${token.value}`;
    }
    if (spec.type === 'boolean' && token.value !== undefined) return `${token.rawName} takes no value: write ${token.rawName}, not ${token.rawName}=${token.value}`;
  }
  return null;
}
