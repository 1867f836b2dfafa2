// The editor's agent-mode tools and `relata mcp`'s tools are one set of tools: package.json's
// contributes.languageModelTools must say what the MCP server says (the same input schemas, the
// model descriptions beginning with the same words), read here from the MCP server itself through
// the SDK's own client, so the two cannot drift. And nothing an agent or the chat can reach
// confirms or rejects: those decisions stay a person's.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { KNOWLEDGE_TOOLS } from '../../shared/protocol.ts';
import { relataMcpServer } from '../../server/src/mcp/mcpServer.ts';
import type { WorkspaceStore } from '../../server/src/store/contract.ts';
import { CHAT_BUTTON_COMMANDS, PARTICIPANT_COMMANDS, PARTICIPANT_ID } from '../../client/src/chat/chatParts.ts';
import { AGENT_TOOLS, toolInput, toolResultText, UNTRUSTED_FIRST_LINE } from '../../client/src/chat/toolText.ts';
import { REPO_ROOT } from '../support/tempFolder.ts';

interface ContributedTool {
  name: string;
  displayName: string;
  modelDescription: string;
  inputSchema: Record<string, unknown>;
  tags?: string[];
}

const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
const contributed: ContributedTool[] = manifest.contributes.languageModelTools;

/** The tools as an MCP client lists them. Listing reads nothing of the store: any read of it fails this test. */
async function mcpTools() {
  const untouchable = new Proxy({}, { get: (_target, property) => assert.fail(`listing the tools read the store (${String(property)})`) }) as WorkspaceStore;
  const server = relataMcpServer({ store: untouchable, root: '/work/demo', embedder: null, thresholds: { minScore: 0.35, storeScore: 0.5 } as never }, 'test');
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'relata-agent-tools-test', version: '1.0.0' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

test('every knowledge tool is contributed once, under the name the extension registers', () => {
  assert.deepEqual(contributed.map((tool) => tool.name).sort(), Object.keys(AGENT_TOOLS).sort());
  assert.deepEqual(Object.values(AGENT_TOOLS).sort(), [...KNOWLEDGE_TOOLS].sort());
});

test('each contributed tool takes exactly the input its MCP tool takes, and describes it with the same words', async () => {
  const mcp = new Map((await mcpTools()).map((tool) => [tool.name, tool]));
  for (const tool of contributed) {
    const twin = mcp.get(AGENT_TOOLS[tool.name as keyof typeof AGENT_TOOLS]);
    assert.ok(twin, `${tool.name} has an MCP twin`);
    const { $schema: _dialect, ...schema } = twin.inputSchema as Record<string, unknown>;
    assert.deepEqual(tool.inputSchema, schema, `${tool.name}'s inputSchema is the MCP tool's`);
    assert.ok(tool.modelDescription.startsWith(twin.description!), `${tool.name}'s modelDescription begins with the MCP tool's description`);
    assert.ok(tool.tags?.includes('read-only'), `${tool.name} is tagged read-only`);
  }
});

test('no tool, chat command or chat button can confirm or reject', () => {
  const reachable = [
    ...contributed.flatMap((tool) => [tool.name, tool.displayName]),
    ...KNOWLEDGE_TOOLS,
    ...PARTICIPANT_COMMANDS,
    ...CHAT_BUTTON_COMMANDS,
  ];
  for (const name of reachable) assert.doesNotMatch(name, /confirm|reject|decide/i, name);
  // The chat and the tools send no decision request and run no decision command: their sources do not name one.
  const chat = path.join(REPO_ROOT, 'client', 'src', 'chat');
  for (const file of readdirSync(chat)) {
    const source = readFileSync(path.join(chat, file), 'utf8');
    assert.doesNotMatch(source, /ConfirmRequest|RejectRequest|relata\.confirmProposal|relata\.rejectProposal|\bdecide\(/, file);
  }
});

test('the chat participant and its commands are contributed as the extension registers them', () => {
  const [participant] = manifest.contributes.chatParticipants;
  assert.equal(participant.id, PARTICIPANT_ID);
  assert.equal(participant.name, 'relata');
  assert.deepEqual(participant.commands.map((command: { name: string }) => command.name), [...PARTICIPANT_COMMANDS]);
});

test('a tool passes on only the fields its tool takes; the agent reads first that document text is untrusted', () => {
  assert.deepEqual(toolInput('search', { query: 'crane cost', limit: 5, path: 'x.md', confirm: true }), { query: 'crane cost', limit: 5 });
  assert.deepEqual(toolInput('relationships', { path: 'reports/inspection.md', query: 'x', id: 'rel-1' }), { path: 'reports/inspection.md' });
  assert.deepEqual(toolInput('conflicts', null), {});
  assert.deepEqual(toolInput('item', { path: 42 }), {}, 'a wrong type is left for the server to refuse with its reason');
  const text = toolResultText({ folders: [{ folder: 'file:///work/demo', name: 'demo', result: { results: [] } }] });
  const [first, ...rest] = text.split('\n');
  assert.equal(first, UNTRUSTED_FIRST_LINE);
  assert.match(first!, /untrusted/);
  assert.deepEqual(JSON.parse(rest.join('\n')), { folders: [{ folder: 'file:///work/demo', name: 'demo', result: { results: [] } }] });
});
