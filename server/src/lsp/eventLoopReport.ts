// How long the language server's main thread kept its event loop waiting, reported on stderr
// when RELATA_REPORT_EVENT_LOOP=1 (`npm run bench:lsp` sets it). Every request is read on that
// loop, so a stretch in which the thread does not get back to it is a stretch in which no request
// is answered, however idle the search threads are (docs/PERFORMANCE.md, issue 33). Off by
// default: it costs a timer, and its lines are for whoever measures.

import { monitorEventLoopDelay } from 'node:perf_hooks';

/** How often a line is written. */
const REPORT_EVERY_MS = 10_000;
/** A wait at least this long is counted as a stall on its own. */
const STALL_MS = 250;
/** How finely stalls are looked for. */
const TICK_MS = 50;

export function reportEventLoopDelay(env: NodeJS.ProcessEnv = process.env, write = (line: string) => process.stderr.write(`${line}\n`)): void {
  if (env.RELATA_REPORT_EVENT_LOOP !== '1') return;
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let stalls = 0;
  let stalledMs = 0;
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    const late = now - last - TICK_MS;
    last = now;
    if (late >= STALL_MS) {
      stalls += 1;
      stalledMs += late;
    }
  }, TICK_MS);
  tick.unref();
  const report = setInterval(() => {
    const ms = (ns: number) => (ns / 1e6).toFixed(0);
    write(
      `relata event loop: delay p50 ${ms(histogram.percentile(50))} ms, p99 ${ms(histogram.percentile(99))} ms, max ${ms(histogram.max)} ms; ` +
        `${stalls} stalls of ${STALL_MS} ms or more, ${(stalledMs / 1000).toFixed(1)} s in all (last ${REPORT_EVERY_MS / 1000} s)`,
    );
    histogram.reset();
    stalls = 0;
    stalledMs = 0;
  }, REPORT_EVERY_MS);
  report.unref();
}
