// Memory of a process and its descendants, read from /proc (Linux): what a benchmark reports as
// "peak RSS of every process". A process's threads share its address space, so its VmRSS and VmHWM
// already include every worker thread; child processes are found through /proc/<pid>/task/*/children.

import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** A field of /proc/<pid>/status in bytes (VmRSS, VmHWM), or null once the process is gone. */
export function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** The process and every process below it, by id. */
export function processTree(pid: number): number[] {
  const out = [pid];
  for (let at = 0; at < out.length; at += 1) {
    const taskDir = `/proc/${out[at]}/task`;
    if (!existsSync(taskDir)) continue;
    try {
      for (const task of readdirSync(taskDir)) {
        const children = readFileSync(`${taskDir}/${task}/children`, 'utf8').trim();
        if (children) out.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // The process ended while it was read: its children, if any, are counted under their own ids.
    }
  }
  return [...new Set(out)];
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 3).join(' ');
  } catch {
    return '?';
  }
}

export interface TreeMemory {
  /** The highest sum of every process's resident memory seen at one sample. */
  peakTotal: number;
  /** Each process seen: its command and its own high-water mark (VmHWM, the kernel's peak). */
  processes: Map<number, { command: string; peak: number }>;
}

/** Samples a process tree's memory every `everyMs` until stopped; `read()` gives the figures so far. */
export function sampleTreeMemory(pid: number, everyMs = 500): { read(): TreeMemory; stop(): TreeMemory } {
  const memory: TreeMemory = { peakTotal: 0, processes: new Map() };
  const sample = () => {
    let total = 0;
    for (const member of processTree(pid)) {
      const rss = statusBytes(member, 'VmRSS');
      if (rss === null) continue;
      total += rss;
      const peak = Math.max(statusBytes(member, 'VmHWM') ?? 0, rss);
      const known = memory.processes.get(member);
      if (known) known.peak = Math.max(known.peak, peak);
      else memory.processes.set(member, { command: commandOf(member), peak });
    }
    memory.peakTotal = Math.max(memory.peakTotal, total);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    read: () => (sample(), memory),
    stop: () => {
      sample();
      clearInterval(timer);
      return memory;
    },
  };
}
