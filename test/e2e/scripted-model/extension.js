// Test only (test/e2e/run.sh installs it beside Relata, with --enable-proposed-api): a chat model
// the editor lists like Copilot's, registered when the scenario asks for it, so the steps before
// see an editor without any model. It stands for a real model: it reads the S-labelled sources in
// the prompt and answers with JSON citing the first, as the prompt's schema asks.
const vscode = require('vscode');

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
    vscode.commands.registerCommand('relataE2e.chatConflicts', () => vscode.commands.executeCommand('workbench.action.chat.open', { query: '@relata /conflicts' })),
  );
};
