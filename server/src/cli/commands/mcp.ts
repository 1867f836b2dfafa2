// `relata mcp --folder F`: Relata's knowledge of an indexed folder for coding agents, as an MCP
// server over stdio (mcp/mcpServer.ts). The store is opened to read for the whole session, so an
// agent's calls never wait for, or block, the indexer or the editor's language server.

import { parseEmbeddingChoice, embeddingChoiceFromEnv } from '../../embed/choice.ts';
import { queryEmbedder } from '../../ranking/queryEmbedder.ts';
import { thresholdsFromEnv } from '../../scoring/index.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { openExistingStore } from '../openStore.ts';
import { UsageError } from '../usage.ts';

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'serve the folder\'s knowledge to coding agents (MCP over stdio, read-only)',
  usage: `relata mcp --folder F [--data DIR] [--workspace NAME] [--embedding-model default|none|DIR]

Speaks the Model Context Protocol on stdin/stdout (an MCP client such as VS Code or an agent starts it).
Tools, all read-only: search, relationships (of an item), conflicts, item (its entities and claims).
Document text comes back marked as untrusted, with injection warnings. No tool confirms or rejects a
relationship or an alias: those are a person's decisions, in the Relata UI or CLI.

${COMMON_USAGE.split('\n').filter((line) => !line.includes('--json')).join('\n')}
  --embedding-model the model the folder was embedded with (default: RELATA_EMBEDDING_MODEL, else default); none searches by words only`,
  options: { ...COMMON_OPTIONS, 'embedding-model': { type: 'string' } },
  async run({ values, log }) {
    if (typeof values.folder !== 'string' && typeof values.data !== 'string') throw new UsageError('mcp needs --folder F (the indexed folder) or --data DIR');
    const model = values['embedding-model'] as string | undefined;
    const embedding = model === undefined ? embeddingChoiceFromEnv() : parseEmbeddingChoice(model);
    // stdout carries the protocol: anything else printed there would corrupt it.
    console.log = console.error;
    console.info = console.error;
    const { store, root } = await openExistingStore(values, process.cwd(), 'read');
    if (!root) {
      await store.close();
      throw new UsageError('this store records no indexed folder: run `relata index <folder>` first');
    }
    const embedder = await queryEmbedder(embedding, { loadNow: true });
    const [{ relataMcpServer }, { StdioServerTransport }] = await Promise.all([
      import('../../mcp/mcpServer.ts'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
    ]);
    const server = relataMcpServer({ store, root, embedder, thresholds: thresholdsFromEnv() }, '0.1.0');
    const closed = new Promise<void>((resolve) => {
      server.server.onclose = () => resolve();
      process.stdin.once('end', () => resolve());
    });
    await server.connect(new StdioServerTransport());
    log(`relata mcp: serving ${root} (read-only) on stdio`);
    await closed;
    await server.close().catch(() => undefined);
    await embedder?.close();
    await store.close();
    return 0;
  },
};
