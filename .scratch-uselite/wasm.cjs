const core = require('@energetic-ai/core');
const path = require('path');
const dir = path.dirname(require.resolve('@energetic-ai/core')) + '/';
core.setWasmPaths(dir);
(async () => {
  await core.ready(); console.log('ok', core.getBackend(), Object.keys(core).filter(k => /wasm|Wasm|Thread/.test(k)));
  core.setWasmPaths
})().catch(e => console.log('fail', e));
