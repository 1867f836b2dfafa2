// Identifiers written as code in prose: snake_case names (`rustc_middle`, `MAX_RETRIES`) and
// paths (`std::collections::HashMap`). Prose does not use underscores or "::", so such a token
// is a name from a program; two files naming the same one are about the same part of it. Code
// blocks are left alone (index.ts): every token of a program is not something it is about.
// CamelCase words ("HashMap", "GitHub") are names of things, read by names.ts.

import type { Found } from './found.ts';

const SNAKE = /(?<![\p{L}\p{N}_.\/@:$-])([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)(?![\p{L}\p{N}_@-]|\.[\p{L}\p{N}]|\()/gu;
const PATH = /(?<![\p{L}\p{N}_:])([A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+)(?![\p{L}\p{N}_]|::)/gu;

export function findCodeNames(text: string): Found[] {
  const found: Found[] = [];
  for (const m of text.matchAll(SNAKE)) {
    const name = m[1]!;
    // Two letters at least on each side of an underscore ("a_b" is a subscript, not a name).
    if (name.length < 5 || !/[A-Za-z]{2}/.test(name.split('_')[0]!) || !name.split('_').slice(1).some((part) => /[A-Za-z]{2}/.test(part))) continue;
    found.push({ type: 'code', surface: name, key: `code:${name}`, start: m.index, end: m.index + name.length });
  }
  for (const m of text.matchAll(PATH)) {
    const name = m[1]!;
    found.push({ type: 'code', surface: name, key: `code:${name}`, start: m.index, end: m.index + name.length });
  }
  return found;
}
