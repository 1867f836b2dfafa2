// Which Node runs the language server. The store's SQLite binding is a native module built for
// one Node ABI (the Node that ran `npm ci`), so the server runs as its own process on a Node the
// user controls: `relata.server.runtime` (default "node", found on PATH). VS Code's own runtime is
// a fallback only when the store loads in it (checked with `relata serve --check`); otherwise
// the user is told what to install or set.

import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

export interface RuntimeChoice {
  command: string;
  /** Extra environment for the server process (ELECTRON_RUN_AS_NODE for VS Code's own runtime). */
  env: Record<string, string>;
  /** How the runtime was found, for the output channel. */
  source: string;
}

/** An executable named `command` (a path, or a name looked up on PATH), or null. */
export function findExecutable(command: string, env: NodeJS.ProcessEnv = process.env, platform = process.platform): string | null {
  const isFile = (candidate: string) => {
    try {
      if (!statSync(candidate).isFile()) return false;
      if (platform !== 'win32') accessSync(candidate, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (command.includes('/') || command.includes('\\')) return isFile(path.resolve(command)) ? path.resolve(command) : null;
  const extensions = platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD').split(';') : [''];
  for (const dir of (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean)) {
    for (const extension of extensions) {
      const candidate = path.join(dir, command + extension.toLowerCase());
      if (isFile(candidate)) return candidate;
    }
  }
  return null;
}

/** Runs `relata serve --check` on a runtime: resolves with its "store loads" line, rejects with why not. */
export function checkRuntime(runtime: RuntimeChoice, serverScript: string, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      runtime.command,
      [serverScript, 'serve', '--check'],
      { env: { ...process.env, ...runtime.env }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        if (error) reject(new Error((stderr || error.message).trim().split('\n').slice(-3).join(' ')));
        else resolve(stdout.trim());
      },
    );
  });
}

export class RuntimeNotFound extends Error {}

/**
 * The configured runtime if it exists; else, for the default "node" only, VS Code's own runtime
 * when the store loads there. Throws RuntimeNotFound with a message saying what to do.
 */
export async function chooseRuntime(
  configured: string,
  serverScript: string,
  ownRuntime = process.execPath,
  check: (runtime: RuntimeChoice) => Promise<string> = (runtime) => checkRuntime(runtime, serverScript),
): Promise<RuntimeChoice> {
  const wanted = configured.trim() || 'node';
  const found = findExecutable(wanted);
  if (found) return { command: found, env: {}, source: `relata.server.runtime "${wanted}" → ${found}` };
  const advice =
    'Relata runs its language server on Node.js 20 or 22 (its SQLite store is a native module). ' +
    'Install Node.js and make sure "node" is on PATH, or set "relata.server.runtime" to the full path of a node executable.';
  if (wanted !== 'node') throw new RuntimeNotFound(`relata.server.runtime is "${wanted}", which is not an executable. ${advice}`);
  const own: RuntimeChoice = { command: ownRuntime, env: { ELECTRON_RUN_AS_NODE: '1' }, source: `VS Code's own runtime (${ownRuntime})` };
  try {
    const line = await check(own);
    return { ...own, source: `${own.source}: ${line}` };
  } catch (error) {
    throw new RuntimeNotFound(`"node" was not found on PATH, and the store does not load in VS Code's own runtime (${(error as Error).message}). ${advice}`);
  }
}
