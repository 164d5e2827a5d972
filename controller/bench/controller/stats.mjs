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

/**
 * VmHWM (peak resident set) and VmRSS of a live process, in MiB (Linux
 * /proc), and the largest peak of its live engine spawners (`helperPeak`; 0
 * when it has none).
 */
export function memoryMiB(pid) {
  const read = (p) => {
    const status = readFileSync(`/proc/${p}/status`, "utf8");
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
    return { peak: kb("VmHWM") / 1024, now: kb("VmRSS") / 1024 };
  };
  let helperPeak = 0;
  for (const child of childPids(pid)) {
    try {
      helperPeak = Math.max(helperPeak, read(child).peak);
    } catch {
      // Gone meanwhile.
    }
  }
  return { ...read(pid), helperPeak };
}

/** The pids of a process's live child processes (Linux /proc); none when it is gone. */
export function livePids(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The pids of a live process's live engine spawners (Linux /proc: its children named errand-spawner). */
export function childPids(pid) {
  return livePids(pid).filter((child) => {
    try {
      return readFileSync(`/proc/${child}/comm`, "utf8").trim() === "errand-spawner";
    } catch {
      return false;
    }
  });
}

function ticks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
  return { self: (f[11] + f[12]) / 100, children: (f[13] + f[14]) / 100 };
}

/**
 * CPU seconds of a live process (Linux /proc; clock ticks of 10 ms): its own
 * user + system time (`self`), that of its live child processes (`helpers`:
 * the controller's engine spawner), and that of the processes they and it
 * have waited for (`children`: the engines).
 */
export function cpuSeconds(pid) {
  const own = ticks(pid);
  let helpers = 0;
  let children = own.children;
  for (const child of childPids(pid)) {
    try {
      const t = ticks(child);
      helpers += t.self;
      children += t.children;
    } catch {
      // Ended between the listing and the read: its time is in `own.children` next time.
    }
  }
  return { self: own.self, helpers, children };
}

/**
 * CPU ms spent so far by the processes that take part in a phase and by
 * nothing else, in four parts: the process `pid` alone (`controller`), its
 * engine spawner with the engines and whatever else it has waited for
 * (`engines`), its other live descendants (`plugins`: channel plugin
 * processes), and this bench process (`bench`: its ticket clients and the
 * chat and hook stand-ins). Unlike {@link machineBusyMs} it leaves out what
 * else the machine runs, so a busy machine slows it but does not add to it.
 */
export function participantsSplitMs(pid) {
  const own = process.cpuUsage();
  const root = ticks(pid);
  const spawners = new Set(childPids(pid));
  let engines = root.children * 1000;
  let plugins = 0;
  for (const child of livePids(pid)) {
    if (spawners.has(child)) engines += treeTicksMs(child);
    else plugins += treeTicksMs(child);
  }
  return { controller: root.self * 1000, engines, plugins, bench: (own.user + own.system) / 1000 };
}

/** CPU ms of the live process `pid`, its live descendants and the children each has waited for (Linux /proc). */
export function treeTicksMs(pid) {
  let ms;
  try {
    const t = ticks(pid);
    ms = (t.self + t.children) * 1000;
  } catch {
    return 0; // Ended meanwhile: its time is in its parent's waited-for children once reaped.
  }
  for (const child of livePids(pid)) ms += treeTicksMs(child);
  return ms;
}

/**
 * CPU time the whole machine spent busy so far, in ms (Linux /proc/stat, all
 * cores: user, nice, system, irq, softirq, steal). Across a phase it counts
 * every process that takes part (controller, engines, plugins, the bench's
 * own clients and servers), and everything else the machine does: read it
 * on a quiet machine.
 */
export function machineBusyMs() {
  const cpu = readFileSync("/proc/stat", "utf8").split("\n", 1)[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = cpu;
  return ((user + nice + system + irq + softirq + steal) * 1000) / 100;
}

/**
 * Milliseconds a process's main thread has spent on a CPU (`run`) and runnable but waiting for one (`wait`), from
 * Linux's schedstat; undefined when the process is gone. A thread that waits for a CPU is the machine's limit, not
 * its own: on 2 cores the controller, its spawner, the engines and this bench take turns.
 */
export function mainThreadMs(pid) {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ").map(Number);
    return { run: run / 1e6, wait: wait / 1e6 };
  } catch {
    return undefined;
  }
}
