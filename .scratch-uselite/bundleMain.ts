import { createEmbedder } from '../server/src/embed/choice.ts';
const e = (await createEmbedder({ kind: 'use-lite', threads: 2 }))!;
const v = await e.embed(['hello world', 'bundled worker']);
console.log('bundled ok', v.length, v[0]!.length, e.countTokens('hello world'), e.descriptor);
await e.close();
