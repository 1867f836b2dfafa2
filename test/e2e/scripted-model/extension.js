// Test only (test/e2e/run.sh installs it beside Relata, with --enable-proposed-api): a chat model
// the editor lists like Copilot's, registered when the scenario asks for it, so the steps before
// see an editor without any model. It stands for a real model: it reads the S-labelled sources in
// the prompt and answers with JSON citing the first, as the prompt's schema asks.
const { writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vscode = require('vscode');

/** Where the tool's result is written for the scenario to read whole (TMPDIR is run.sh's scratch folder). */
const TOOL_RESULT_FILE = path.join(os.tmpdir(), 'relata-e2e-tool-result.txt');

const text = (message) => (typeof message.content === 'string' ? message.content : message.content.map((part) => part.value ?? '').join(''));

function scriptedReply(messages) {
  const prompt = messages.map(text).join('\n');
  const label = prompt.match(/<<<SOURCE (S\d+) /)?.[1];
  if (!label) return JSON.stringify({ answer: 'The passages do not say.', sufficient: false, citations: [] });
  return JSON.stringify({ answer: `Scripted answer: the refurbishment's cost is stated in the sources [${label}].`, sufficient: true, citations: [label] });
}

exports.activate = (context) => {
  let offered = null;
  context.subscriptions.push(
    // The chat view's default participant (a stand-in for Copilot's): only there so the view exists.
    vscode.chat.createChatParticipant('relataE2e.default', (_request, _context, stream) => {
      stream.markdown('Test only: ask `@relata`.');
    }),
    vscode.commands.registerCommand('relataE2e.offerScriptedModel', () => {
      offered ??= vscode.lm.registerChatModelProvider(
        'scripted',
        {
          async provideLanguageModelResponse(messages, _options, _extensionId, progress) {
            const reply = scriptedReply(messages);
            // Streamed in two fragments, as a real model streams.
            const half = Math.floor(reply.length / 2);
            progress.report({ index: 0, part: new vscode.LanguageModelTextPart(reply.slice(0, half)) });
            progress.report({ index: 0, part: new vscode.LanguageModelTextPart(reply.slice(half)) });
          },
          async provideTokenCount(value) {
            return Math.ceil((typeof value === 'string' ? value : text(value)).length / 4);
          },
        },
        { vendor: 'relata-e2e', name: 'Scripted Model', family: 'scripted', version: '1', maxInputTokens: 100_000, maxOutputTokens: 4_000, isUserSelectable: true, isDefault: true },
      );
      context.subscriptions.push(offered);
    }),
    // Titled without "Relata" or "Ask", so the palette's "Relata: Ask" never lands on it.
    vscode.commands.registerCommand('relataE2e.chatWithParticipant', () =>
      vscode.commands.executeCommand('workbench.action.chat.open', { query: '@relata What was the final cost of the GC-2 refurbishment?' }),
    ),
    // As an agent calls a tool: through the editor's tool service, which checks the input against the contributed schema.
    vscode.commands.registerCommand('relataE2e.invokeSearchTool', async () => {
      let content;
      try {
        const result = await vscode.lm.invokeTool('relata_search', { input: { query: 'GC-2 refurbishment cost', limit: 3 }, toolInvocationToken: undefined });
        content = result.content.map((part) => part.value ?? '').join('');
      } catch (error) {
        content = `tool failed: ${error.message}`;
      }
      writeFileSync(TOOL_RESULT_FILE, content);
      // The saved file, not an untitled document: closing that would stop the scenario at a "save?" dialog.
      await vscode.window.showTextDocument(vscode.Uri.file(TOOL_RESULT_FILE));
    }),
    vscode.commands.registerCommand('relataE2e.chatConflicts', () => vscode.commands.executeCommand('workbench.action.chat.open', { query: '@relata /conflicts' })),
  );
};
