// Checks the shape of the house from its imports: no import circle anywhere in the sources, and
// the store below the stages that feed it. A circle means neither file can be read, tested or
// moved without the other; a store that imports a stage cannot be used without it. Every import
// counts, `import type` and `import()` included, because each is a dependency a reader has to
// follow. Uses the TypeScript compiler's own import scanner, so it needs nothing beyond
// `typescript`.
//
//   node scripts/import-circles.mjs [--json] [--root DIR]      (npm run check:imports)
//
// --root reads another tree laid out the same way (the test gives it one with a circle).
//
// Exits 0 when the graph is clean and 1 listing each circle and each forbidden import.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const rootAt = process.argv.indexOf('--root');
const ROOT = rootAt > 0 ? path.resolve(process.argv[rootAt + 1]) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['server/src', 'client/src', 'shared', 'webview-ui/src'];

// A room that must never import another: [importer folder, folders it may not import]. The store
// keeps what the stages produce, so the records it keeps are defined below both (records/), which
// imports nothing of the server at all.
const SERVER_ROOMS = ['parse', 'extract', 'discover', 'lsp', 'cli', 'mcp'];
const FORBIDDEN = [
  ['server/src/store/', SERVER_ROOMS.map((room) => `server/src/${room}/`)],
  ['server/src/records/', ['server/src/']],
  ['server/src/knowledge/', ['server/src/mcp/', 'server/src/lsp/', 'server/src/cli/']],
  ['server/src/lsp/', ['server/src/mcp/']],
  ['server/src/mcp/', ['server/src/lsp/']],
];

function sourceFiles() {
  const files = [];
  for (const folder of SOURCES) {
    const full = path.join(ROOT, folder);
    if (!existsSync(full)) continue;
    for (const entry of readdirSync(full, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        files.push(path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
      }
    }
  }
  return files.sort();
}

function importsOf(file, known) {
  const source = readFileSync(path.join(ROOT, file), 'utf8');
  const { importedFiles } = ts.preProcessFile(source, true, true);
  const targets = new Set();
  for (const { fileName } of importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), fileName));
    const candidates = [base, `${base}.ts`, `${base}.tsx`, base.replace(/\.js$/, '.ts'), `${base}/index.ts`];
    const target = candidates.find((candidate) => known.has(candidate));
    if (target) targets.add(target);
  }
  return [...targets].sort();
}

function importGraph() {
  const files = sourceFiles();
  const known = new Set(files);
  return new Map(files.map((file) => [file, importsOf(file, known)]));
}

// Tarjan's strongly connected components: each component of more than one file (or a file that
// imports itself) is a circle, listed with the imports that close it.
function circles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (start) => {
    const work = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, next] = frame;
      const edges = graph.get(node) ?? [];
      if (next < edges.length) {
        frame[1]++;
        const target = edges[next];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) {
          low.set(node, Math.min(low.get(node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        const selfLoop = component.length === 1 && edges.includes(node);
        if (component.length > 1 || selfLoop) {
          const members = new Set(component);
          const arrows = component
            .flatMap((from) => (graph.get(from) ?? []).filter((to) => members.has(to)).map((to) => `${from} -> ${to}`))
            .sort();
          found.push({ files: component.sort(), arrows });
        }
      }
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a.files[0].localeCompare(b.files[0]));
}

function forbiddenImports(graph) {
  const found = [];
  for (const [from, targets] of graph) {
    for (const [room, banned] of FORBIDDEN) {
      if (!from.startsWith(room)) continue;
      for (const to of targets) {
        if (to.startsWith(room)) continue;
        const hit = banned.find((folder) => to.startsWith(folder));
        if (hit) found.push(`${from} -> ${to} (${room} never imports ${hit})`);
      }
    }
  }
  return found.sort();
}

const graph = importGraph();
const found = { circles: circles(graph), forbidden: forbiddenImports(graph) };
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(found, null, 2));
} else {
  for (const circle of found.circles) {
    console.log(`circle of ${circle.files.length} files:`);
    for (const arrow of circle.arrows) console.log(`  ${arrow}`);
  }
  for (const line of found.forbidden) console.log(`forbidden: ${line}`);
  const imports = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
  console.log(
    `${graph.size} files, ${imports} imports: ${found.circles.length} circles, ${found.forbidden.length} forbidden imports`,
  );
}
process.exitCode = found.circles.length + found.forbidden.length > 0 ? 1 : 0;
