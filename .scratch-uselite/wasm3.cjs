const core = require('@energetic-ai/core');
core.setWasmPaths('/nonexistent/');
core.ready().then(() => console.log('ok?', core.getBackend()), (e) => console.log('rejected', e && (e.message || e)));
