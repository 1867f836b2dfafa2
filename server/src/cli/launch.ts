// The `relata` executable (dist/cli.js): a few lines that run before the command line itself is
// loaded. A search is first offered to the language server that has the same store open, if any
// (searchByServer.ts): its answer needs neither the model nor the store loaded here. Otherwise a
// search or a question with the default model starts its query model's thread here, so the
// thread's load (the longest wait of a cold search) overlaps the command line's own start:
// compiling its bundle, loading SQLite and the other native modules, opening the store.
// Everything else is main.ts, bundled apart as dist/relata.js and loaded from here.

import { searchedByRunningServer } from './searchByServer.ts';
import { startQueryModelEarly, wantsQueryModel } from '../ranking/earlyQueryModel.ts';

const args = process.argv.slice(2);

if (!(args[0] === 'search' && (await searchedByRunningServer(args.slice(1))))) {
  if (wantsQueryModel(args)) {
    try {
      await startQueryModelEarly();
    } catch {
      // The query embedder starts its own thread and reports what went wrong.
    }
  }
  // Not a literal: the bundler must leave the command line out of this file.
  await import(new URL(import.meta.url.endsWith('.ts') ? './main.ts' : './relata.js', import.meta.url).href);
}
