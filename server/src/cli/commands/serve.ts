// `relata serve --stdio`: the language server, speaking LSP over stdin/stdout to an editor.
// `relata serve --check` says whether this Node can load the store (the native SQLite binding is
// built for one Node ABI), which the VS Code client uses to choose a runtime.

import { COMMON_USAGE, type Command } from '../command.ts';
import { UsageError } from '../usage.ts';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the language server for an editor (LSP over stdio)',
  usage: `relata serve --stdio | --check

  --stdio           speak the Language Server Protocol on stdin/stdout (the editor starts this)
  --check           load the store's native module and print this Node's version and ABI, then exit
${COMMON_USAGE.split('\n').filter((line) => line.includes('--help')).join('\n')}`,
  options: {
    stdio: { type: 'boolean' },
    check: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    // vscode-languageclient appends --clientProcessId=PID for the server to watch its editor.
    clientProcessId: { type: 'string' },
  },
  async run({ values, out }) {
    if (values.check) {
      const { default: Database } = await import('better-sqlite3');
      new Database(':memory:').close();
      out(`store loads: node ${process.version}, ABI ${process.versions.modules}`);
      return 0;
    }
    if (!values.stdio) throw new UsageError('serve needs --stdio (the only transport) or --check');
    // stdout carries the protocol: anything else printed there would corrupt it.
    console.log = console.error;
    console.info = console.error;
    const { serveStdio } = await import('../../lsp/server.ts');
    serveStdio();
    // The connection ends the process on `exit` (or when the editor's process disappears).
    await new Promise<never>(() => undefined);
    return 0;
  },
};
