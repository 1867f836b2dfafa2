// `relata search "<query>"`: the workspace's items ranked for a query, each with why it matched,
// its relevance (relative to this result set), its semantic similarity (apart from relevance) and
// the passage to open. Works with lexical paths alone while vectors are still being computed.
// Before this runs, the `relata` launcher may have had the search answered by a language server
// that has the same store open (cli/searchByServer.ts); this is the search in this process.

import { queryEmbedder } from '../../ranking/queryEmbedder.ts';
import { searchWorkspace } from '../../ranking/search.ts';
import type { Command } from '../command.ts';
import { openExistingStore } from '../openStore.ts';
import { SEARCH_OPTIONS, SEARCH_USAGE, searchArguments } from '../searchArgs.ts';
import { searchOutput } from '../searchText.ts';

export const searchCommand: Command = {
  name: 'search',
  summary: 'search the indexed folder, with why each result matched',
  usage: SEARCH_USAGE,
  options: SEARCH_OPTIONS,
  async run({ values, positionals, out }) {
    const { query, limit, rankVersion, confirmedOnly, embedding } = searchArguments(values, positionals);
    // On a cold start the query model is what a search waits for longest: it loads in its own
    // thread (started by the launcher, cli/launch.ts, or from here) while the store opens.
    const embedder = await queryEmbedder(embedding, { loadNow: true });
    try {
      const { store } = await openExistingStore(values, process.cwd(), 'read');
      try {
        const response = await searchWorkspace(store, embedder, query, { limit, rankVersion, confirmedOnly });
        out(searchOutput(response, values.json === true, { all: values.all === true }));
        return 0;
      } finally {
        await store.close();
      }
    } finally {
      await embedder?.close();
    }
  },
};
