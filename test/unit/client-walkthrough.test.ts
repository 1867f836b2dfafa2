// The first-run walkthrough and the default keybindings, as package.json declares them: every
// step's completion event names something that exists (a command Relata registers, its view, one
// of its settings), so a step can really be ticked off; every media file is packaged; every link
// runs a command that exists.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

type Step = { id: string; description: string; media: { image?: string; markdown?: string }; completionEvents: string[] };
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  contributes: {
    commands: { command: string }[];
    views: Record<string, { id: string }[]>;
    configuration: { properties: Record<string, unknown> };
    keybindings: { command: string; key: string; mac?: string }[];
    walkthroughs: { id: string; steps: Step[] }[];
  };
};
const { contributes } = manifest;
const commands = new Set(contributes.commands.map((entry) => entry.command));
const views = new Set(Object.values(contributes.views).flat().map((view) => view.id));
const extensionSource = readFileSync(new URL('../../client/src/extension.ts', import.meta.url), 'utf8');
const REPO = new URL('../../', import.meta.url);

/** A command a link or an event may name: Relata's own (declared and registered), a view's focus command, or VS Code's settings. */
function commandExists(command: string): boolean {
  if (command === 'workbench.action.openSettings') return true;
  const view = /^(.*)\.focus$/.exec(command)?.[1];
  if (view && views.has(view)) return true;
  return commands.has(command) && extensionSource.includes(`'${command}'`);
}

test('the walkthrough covers what Relata does, indexing, search, review and a model for answers', () => {
  const [walkthrough] = contributes.walkthroughs;
  assert.ok(walkthrough);
  assert.deepEqual(walkthrough.steps.map((step) => step.id), ['whatRelataDoes', 'indexingStatus', 'trySearch', 'reviewProposal', 'configureModel']);
});

test('every walkthrough step can be completed: its events name a real command, view or setting', () => {
  for (const step of contributes.walkthroughs.flatMap((walkthrough) => walkthrough.steps)) {
    assert.ok(step.completionEvents.length > 0, `${step.id} has a completion event`);
    for (const event of step.completionEvents) {
      const [kind, name = ''] = event.split(/:(.*)/s);
      if (kind === 'onCommand') assert.ok(commandExists(name), `${step.id}: ${event} names a registered command`);
      else if (kind === 'onView') assert.ok(views.has(name), `${step.id}: ${event} names a view`);
      else if (kind === 'onSettingChanged') assert.ok(name in contributes.configuration.properties, `${step.id}: ${event} names a setting`);
      else assert.fail(`${step.id}: unexpected completion event ${event}`);
    }
    for (const [, command] of step.description.matchAll(/\(command:([\w.]+)/g)) {
      assert.ok(commandExists(command!), `${step.id}: its link runs ${command}, which exists`);
    }
    const media = step.media.image ?? step.media.markdown;
    assert.ok(media?.startsWith('media/') && existsSync(new URL(media, REPO)), `${step.id}: ${media} is under media/, which is packaged`);
  }
});

test('Search Knowledge and Ask have default keybindings: Ctrl+K K and Ctrl+K A (⌘K K, ⌘K A)', () => {
  const bindings = new Map(contributes.keybindings.map((binding) => [binding.command, binding]));
  assert.equal(bindings.get('relata.search')?.key, 'ctrl+k k');
  assert.equal(bindings.get('relata.ask')?.key, 'ctrl+k a');
  for (const binding of contributes.keybindings) assert.ok(commandExists(binding.command), `${binding.command} exists`);
});
