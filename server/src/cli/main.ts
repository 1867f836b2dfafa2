// `relata`: the command line over the engine. Results go to stdout (exactly one JSON document
// with --json), progress and logs to stderr. Exit 0 on success, 1 on a failure, 2 on a usage error.

import { didYouMean } from './closestName.ts';
import type { Command } from './command.ts';
import { asksForHelp, readCommandLine } from './commandLine.ts';
import { aliasesCommand, confirmAliasCommand, rejectAliasCommand } from './commands/aliases.ts';
import { askCommand } from './commands/ask.ts';
import { checkCommand } from './commands/check.ts';
import { confirmCommand, rejectCommand } from './commands/decide.ts';
import { entitiesCommand } from './commands/entities.ts';
import { exportCommand } from './commands/export.ts';
import { forgetCommand } from './commands/forget.ts';
import { importCommand } from './commands/import.ts';
import { indexCommand } from './commands/index.ts';
import { itemCommand } from './commands/item.ts';
import { itemsCommand } from './commands/items.ts';
import { mcpCommand } from './commands/mcp.ts';
import { originalCommand } from './commands/original.ts';
import { relatedCommand } from './commands/related.ts';
import { relationshipsCommand } from './commands/relationships.ts';
import { reprocessCommand } from './commands/reprocess.ts';
import { scoringCommand } from './commands/scoring.ts';
import { searchCommand } from './commands/search.ts';
import { serveCommand } from './commands/serve.ts';
import { statusCommand } from './commands/status.ts';
import { workerCommand } from './commands/worker.ts';
import { EXIT_FAILURE, EXIT_USAGE, UsageError } from './usage.ts';
import { DAMAGE_REMEDY, isDamageError } from '../store/storeErrors.ts';
import { unreachableReason, withoutCredentials } from '../engine/storeRetry.ts';
import { isStoreUnreachable } from '../store/transientFailure.ts';
import { terminalText } from './terminalText.ts';

const COMMANDS: Command[] = [
  indexCommand,
  workerCommand,
  statusCommand,
  itemsCommand,
  itemCommand,
  originalCommand,
  entitiesCommand,
  relationshipsCommand,
  relatedCommand,
  confirmCommand,
  rejectCommand,
  aliasesCommand,
  confirmAliasCommand,
  rejectAliasCommand,
  reprocessCommand,
  forgetCommand,
  checkCommand,
  exportCommand,
  importCommand,
  scoringCommand,
  searchCommand,
  askCommand,
  serveCommand,
  mcpCommand,
];

const COMMAND_NAMES = COMMANDS.map((command) => command.name);

function overview(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    'relata: turn a folder of documents into connected, explainable knowledge',
    '',
    'usage: relata <command> [options]   (relata <command> --help, or relata help <command>, for details)',
    '',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  // Everything printed passes through terminalText, so no command can hand a document's control
  // characters to the terminal (JSON output included: its escapes are valid JSON).
  const log = (line: string) => process.stderr.write(`${terminalText(line)}\n`);
  const out = (text: string) => process.stdout.write(`${terminalText(text)}\n`);
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    if (name === 'help' && rest[0] !== undefined) {
      const asked = COMMANDS.find((candidate) => candidate.name === rest[0]);
      if (asked) {
        out(`usage: ${asked.usage}`);
        return 0;
      }
      log(`relata help: no command "${rest[0]}"${didYouMean(rest[0], COMMAND_NAMES)} (relata --help lists every command)`);
      return EXIT_USAGE;
    }
    (name ? out : log)(overview());
    return name ? 0 : EXIT_USAGE;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    // One line: the mistake, the likely command, where the list is; the list itself only when asked.
    const hint = didYouMean(name, COMMAND_NAMES);
    log(`relata: unknown command "${name}"${hint} (relata --help lists every command)`);
    return EXIT_USAGE;
  }
  if (asksForHelp(rest)) {
    out(`usage: ${command.usage}`);
    return 0;
  }
  try {
    const { values, positionals } = readCommandLine(rest, command.options);
    return await command.run({ values, positionals, log, out });
  } catch (error) {
    if (error instanceof UsageError) {
      log(`relata ${command.name}: ${error.message} (relata ${command.name} --help)`);
      return EXIT_USAGE;
    }
    if (isDamageError(error)) {
      // Damage met where the store's path was not at hand (StoreDamagedError names it already).
      log(`relata ${command.name}: the store is damaged (${(error as Error).message}). ${DAMAGE_REMEDY}`);
      return EXIT_FAILURE;
    }
    if (isStoreUnreachable(error)) {
      // A server that is down or refuses: which one and where, in one line; the work waits in its queue.
      log(`relata ${command.name}: the store could not be reached (${unreachableReason(error)}); nothing was lost: try again when it is back`);
      return EXIT_FAILURE;
    }
    // One line, never a stack; a driver's message may quote its connection string.
    log(`relata ${command.name}: ${withoutCredentials(error instanceof Error ? error.message : String(error))}`);
    return EXIT_FAILURE;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`relata: ${terminalText(String(error))}\n`);
    process.exitCode = EXIT_FAILURE;
  },
);
