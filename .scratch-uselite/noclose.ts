import { createUseLiteEmbedder } from '../server/src/embed/useLite/index.ts';
const e = await createUseLiteEmbedder({ threads: 1 });
const v = await e.embed(['no close called']);
console.log('embedded', v.length, 'exiting without close');
