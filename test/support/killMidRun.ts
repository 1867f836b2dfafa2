// The crash-safety tests' one move: start a real `relata` process and SIGKILL it after a delay.
// Whether it was still running then is what a test counts, since a run that already ended proves
// nothing about a crash.

import { spawn } from 'node:child_process';

/** Runs `node <args>` and SIGKILLs it after `delayMs`; resolves with whether it was still running. */
export function runAndKill(args: readonly string[], delayMs: number, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: 'ignore', env });
    let exited = false;
    child.on('exit', () => {
      exited = true;
    });
    setTimeout(() => {
      const killedMidRun = !exited && child.kill('SIGKILL');
      child.on('close', () => resolve(killedMidRun));
      if (exited) resolve(false);
    }, delayMs);
  });
}
