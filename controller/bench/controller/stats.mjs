// Small figures helpers shared by the controller bench's phases.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";

/** The p-th percentile (nearest rank) of ascending `sorted`. */
export function pct(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export const load1 = () => loadavg()[0].toFixed(2);

/** A progress line on stderr (overwritten in place on a terminal). */
export function progress(text) {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${text}`);
  else process.stderr.write(`${text}\n`);
}

/** Ends a progress line with a final message. */
export function note(text) {
  if (process.stderr.isTTY) process.stderr.write("\r\x1b[K");
  process.stderr.write(`${text}\n`);
}

/** VmHWM (peak resident set) and VmRSS of a live process, in MiB (Linux /proc). */
export function memoryMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { peak: kb("VmHWM") / 1024, now: kb("VmRSS") / 1024 };
}

/**
 * CPU seconds of a live process (Linux /proc; clock ticks of 10 ms): its own
 * user + system time, and that of the children it has waited for (the engines).
 */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ").map(Number);
  return { self: (f[11] + f[12]) / 100, children: (f[13] + f[14]) / 100 };
}
