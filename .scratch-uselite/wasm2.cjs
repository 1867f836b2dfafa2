const core = require('@energetic-ai/core');
core.setWasmPaths('/nonexistent/');
core.ready().then(() => console.log('ok?'), (e) => console.log('rejected', e && (e.message || e)));
setTimeout(() => console.log('still alive'), 3000);
