// node controller/bench/controller-rss.bench.mjs — only the controller's
// no-channels saturation phase of bench:controller (BENCH_TICKETS, default
// 10,000), to iterate on the peak RSS of `errand run` without the other
// phases. BENCH_NODE_ARGS as in bench:controller (`--trace-gc`, say: the
// trace goes to the installation's controller.log). BENCH_MEMORY_LOG=<file>
// preloads memory-sampler.mjs, which writes a memoryUsage() line every 250 ms.
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { stopController } from "./controller/controller-process.mjs";
import { createInstallation } from "./controller/installation.mjs";
import { saturate } from "./controller/phases.mjs";
import { load1, note } from "./controller/stats.mjs";

const total = Number(process.env.BENCH_TICKETS ?? 10000);
const args = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
if (process.env.BENCH_MEMORY_LOG)
  args.push("--import", fileURLToPath(new URL("./controller/memory-sampler.mjs", import.meta.url)));
process.env.BENCH_NODE_ARGS = args.join(" ");

const installation = await createInstallation({ concurrency: 16 });
note(`controller, no channels: ${total} tickets (load average ${load1()})`);
const { running, result } = await saturate(installation, total, "controller");
await stopController(running);
console.log(
  JSON.stringify({
    tickets: total,
    perSecond: Number(result.perSecond.toFixed(1)),
    peakRssMiB: Number(result.memory.peak.toFixed(1)),
    spawnerPeakMiB: Number(result.memory.helperPeak.toFixed(1)),
    cpuMsPerRun: Number(result.cpuMsPerRun.toFixed(2)),
    states: result.states,
    load: load1(),
  }),
);
if (process.env.BENCH_KEEP === "1") console.log(`installation kept: ${installation.dir}`);
else rmSync(installation.dir, { recursive: true, force: true });
