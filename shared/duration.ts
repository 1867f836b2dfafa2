// A time left or taken, in the unit a person reads it in: "40 s", "12 min", "2.5 h". One wording
// for the CLI's progress, the editor's log and its status bar.

export function describeDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 90 ? `${minutes} min` : `${(minutes / 60).toFixed(1)} h`;
}
