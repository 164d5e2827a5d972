// Preloaded into the controller's node (`--import`) by controller-rss.bench.mjs
// when BENCH_MEMORY_LOG names a file: one JSON line of process.memoryUsage()
// and V8's heap spaces every BENCH_MEMORY_MS (250) ms, so the bench can show
// where the resident set goes during a burst, not only its peak.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics } from "node:v8";

const file = process.env.BENCH_MEMORY_LOG;
if (file) {
  const MiB = (n) => Math.round((n / 1048576) * 10) / 10;
  const started = performance.now();
  // GC pauses so far (count and ms) by kind: what a smaller heap costs.
  const gc = { minor: [0, 0], major: [0, 0] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = e.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR ? gc.minor : gc.major;
      kind[0] += 1;
      kind[1] += e.duration;
    }
  }).observe({ entryTypes: ["gc"] });
  const sample = () => {
    const m = process.memoryUsage();
    const spaces = Object.fromEntries(
      getHeapSpaceStatistics().map((s) => [s.space_name, [MiB(s.space_used_size), MiB(s.space_size)]]),
    );
    const status = readFileSync("/proc/self/status", "utf8");
    const kB = (key) => Math.round(Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1]) / 102.4) / 10;
    // The main thread's malloc heap (brk): SQLite's page cache and other native allocations live there.
    const brk = /^([0-9a-f]+)-([0-9a-f]+) .*\[heap\]$/m.exec(readFileSync("/proc/self/maps", "utf8"));
    const line = {
      t: Math.round(performance.now() - started),
      rss: MiB(m.rss),
      anon: kB("RssAnon"),
      file: kB("RssFile"),
      threads: Number(/^Threads:\s+(\d+)/m.exec(status)?.[1]),
      brk: brk ? MiB(Number.parseInt(brk[2], 16) - Number.parseInt(brk[1], 16)) : 0,
      heapUsed: MiB(m.heapUsed),
      heapTotal: MiB(m.heapTotal),
      external: MiB(m.external),
      arrayBuffers: MiB(m.arrayBuffers),
      gc: { minor: [gc.minor[0], Math.round(gc.minor[1])], major: [gc.major[0], Math.round(gc.major[1])] },
      spaces,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
  // The mappings at the end of the run (which regions hold the resident set), beside the samples.
  process.once("SIGTERM", () => writeFileSync(`${file}.smaps`, readFileSync("/proc/self/smaps")));
  setInterval(sample, Number(process.env.BENCH_MEMORY_MS ?? 250)).unref();
}
