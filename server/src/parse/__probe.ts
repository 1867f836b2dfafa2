import { parseFile } from './registry.ts';
for (const [name, src] of [['a.json', '['.repeat(100000) + ']'.repeat(100000)], ['a.md', '>'.repeat(100000) + ' hi'], ['b.md', '- '.repeat(50000) + 'x'], ['c.md', '*'.repeat(100000) + 'x' + '*'.repeat(100000)]] as const) {
  const t = Date.now();
  try { const d = await parseFile(new TextEncoder().encode(src), name); console.log(name, 'ok', d.blocks.length, Date.now() - t, 'ms'); }
  catch (e: any) { console.log(name, e.constructor.name, String(e.message).slice(0, 100), Date.now() - t, 'ms'); }
}
