// The limit: the same engine script spawned N times at the loop's concurrency
// with node:child_process (as the local backend's spawner does), in this process, with the options the local backend spawns
// engines with (own process group, piped and drained output, an environment
// built from nothing), its result file read and parsed, nothing else: no
// store, no run files, no log, no HTTP.

import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { benchTempDir } from "./bench-dir.mjs";
import { cpuSeconds, progress } from "./stats.mjs";

/** Runs `total` engine processes, `concurrency` at a time; resolves with the runs per second. */
export async function bareLoop(engine, total, concurrency) {
  const dir = benchTempDir("errand-bench-bare-");
  let next = 0;
  let done = 0;
  let failed = 0;
  const cpuBefore = cpuSeconds(process.pid);
  const started = performance.now();
  const ticker = setInterval(
    () => progress(`bare loop: ${done}/${total} (${(done / ((performance.now() - started) / 1000)).toFixed(0)}/s)`),
    2000,
  );
  const worker = async () => {
    while (next < total) {
      const file = join(dir, `${next++}.json`);
      const child = spawn(engine, [], {
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ERRAND_RESULT_FILE: file },
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      child.stdout.resume();
      child.stderr.resume();
      const result = await new Promise((resolve, reject) => {
        child.once("error", reject);
        child.once("close", (exitCode) => resolve({ exitCode }));
      });
      const parsed = JSON.parse(await readFile(file, "utf8"));
      if (result.exitCode !== 0 || parsed.success !== true) failed++;
      await rm(file);
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(ticker);
  const cpu = cpuSeconds(process.pid);
  rmSync(dir, { recursive: true, force: true });
  return {
    total,
    failed,
    seconds,
    perSecond: total / seconds,
    cpuMsPerRun: ((cpu.self - cpuBefore.self) * 1000) / total,
    engineCpuMsPerRun: ((cpu.children - cpuBefore.children) * 1000) / total,
  };
}
