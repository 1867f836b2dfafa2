// `relata`: the command line over the engine. Results go to stdout (exactly one JSON document
// with --json), progress and logs to stderr. Exit 0 on success, 1 on a failure, 2 on a usage error.

import { didYouMean } from './closestName.ts';
import type { Command } from './command.ts';
import { asksForHelp, readCommandLine } from './commandLine.ts';
import { EXIT_FAILURE, EXIT_USAGE, UsageError } from './usage.ts';
import { DAMAGE_REMEDY, isDamageError } from '../store/storeErrors.ts';
import { unreachableReason, withoutCredentials } from '../engine/storeRetry.ts';
import { isStoreUnreachable } from '../store/transientFailure.ts';
import { terminalText } from './terminalText.ts';

/**
 * Every command, in the order `relata --help` lists them, each loaded only when it runs: the
 * bundler splits at these imports, so a command compiles its own code and what it shares, not the
 * language server's, the MCP server's or the parsers' when it needs none of them. Each process
 * starts one command, and the test suite starts several hundred.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  index: async () => (await import('./commands/index.ts')).indexCommand,
  worker: async () => (await import('./commands/worker.ts')).workerCommand,
  status: async () => (await import('./commands/status.ts')).statusCommand,
  items: async () => (await import('./commands/items.ts')).itemsCommand,
  item: async () => (await import('./commands/item.ts')).itemCommand,
  original: async () => (await import('./commands/original.ts')).originalCommand,
  entities: async () => (await import('./commands/entities.ts')).entitiesCommand,
  relationships: async () => (await import('./commands/relationships.ts')).relationshipsCommand,
  related: async () => (await import('./commands/related.ts')).relatedCommand,
  confirm: async () => (await import('./commands/decide.ts')).confirmCommand,
  reject: async () => (await import('./commands/decide.ts')).rejectCommand,
  aliases: async () => (await import('./commands/aliases.ts')).aliasesCommand,
  'confirm-alias': async () => (await import('./commands/aliases.ts')).confirmAliasCommand,
  'reject-alias': async () => (await import('./commands/aliases.ts')).rejectAliasCommand,
  reprocess: async () => (await import('./commands/reprocess.ts')).reprocessCommand,
  forget: async () => (await import('./commands/forget.ts')).forgetCommand,
  check: async () => (await import('./commands/check.ts')).checkCommand,
  export: async () => (await import('./commands/export.ts')).exportCommand,
  import: async () => (await import('./commands/import.ts')).importCommand,
  scoring: async () => (await import('./commands/scoring.ts')).scoringCommand,
  search: async () => (await import('./commands/search.ts')).searchCommand,
  ask: async () => (await import('./commands/ask.ts')).askCommand,
  serve: async () => (await import('./commands/serve.ts')).serveCommand,
  mcp: async () => (await import('./commands/mcp.ts')).mcpCommand,
};

const COMMAND_NAMES = Object.keys(COMMANDS);

/** The command a name stands for, loaded; undefined for a name that is none. */
async function loadCommand(name: string): Promise<Command | undefined> {
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  return load?.();
}

/** The list of every command: the one place that loads them all. */
async function overview(): Promise<string> {
  const commands = await Promise.all(Object.values(COMMANDS).map((load) => load()));
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    'relata: turn a folder of documents into connected, explainable knowledge',
    '',
    'usage: relata <command> [options]   (relata <command> --help, or relata help <command>, for details)',
    '',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
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
      const asked = await loadCommand(rest[0]);
      if (asked) {
        out(`usage: ${asked.usage}`);
        return 0;
      }
      log(`relata help: no command "${rest[0]}"${didYouMean(rest[0], COMMAND_NAMES)} (relata --help lists every command)`);
      return EXIT_USAGE;
    }
    (name ? out : log)(await overview());
    return name ? 0 : EXIT_USAGE;
  }
  const command = await loadCommand(name);
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
