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

function loadVsce() {
  // @vscode/vsce is a devDependency; until the root project has it, the e2e folder's copy serves.
  for (const from of [root, path.join(root, 'test', 'e2e')]) {
    try {
      return createRequire(path.join(from, 'package.json'))('@vscode/vsce');
    } catch {
      // try the next location
    }
  }
  throw new Error('@vscode/vsce is not installed: run `npm ci` (or test/e2e/install.sh)');
}

/** Bare package names a bundle imports or requires, e.g. "better-sqlite3", "@energetic-ai/core". */
function runtimeImports(file) {
  const code = readFileSync(file, 'utf8');
  const names = new Set();
  for (const [, specifier] of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["']([^"'./][^"']*)["']/g)) {
    if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]) || specifier === 'vscode') continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
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

const forThisPlatform = (pkg) =>
  (!pkg.os || pkg.os.includes(process.platform)) && (!pkg.cpu || pkg.cpu.includes(process.arch));

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
const imports = new Set(bundles.flatMap((name) => [...runtimeImports(path.join(root, 'dist', name))]));
const packages = closure(imports);
for (const dir of packages.keys()) {
  cpSync(dir, path.join(stage, path.relative(root, dir)), { recursive: true, filter: keep, dereference: true });
}
for (const name of bundles) cpSync(path.join(root, 'dist', name), path.join(stage, 'dist', name));
cpSync(path.join(root, 'dist', 'webview'), path.join(stage, 'dist', 'webview'), { recursive: true });
cpSync(path.join(root, 'media'), path.join(stage, 'media'), { recursive: true });
cpSync(path.join(root, 'client', 'README.md'), path.join(stage, 'README.md'));

const { scripts: _scripts, devDependencies: _dev, allowScripts: _allow, private: _private, ...published } = manifest;
writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
writeFileSync(path.join(stage, '.vscodeignore'), '*.vsix\n');

const vsce = loadVsce();
await vsce.createVSIX({ cwd: stage, packagePath: out, target, dependencies: false, skipLicense: true, allowMissingRepository: true });
const size = statSync(out).size / (1024 * 1024);
console.error(
  `packaged ${path.relative(process.cwd(), out)} (${size.toFixed(1)} MB, ${packages.size} runtime packages: ${[...imports].sort().join(', ')}) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
