// `--notifier`: the notifier's own cost in alternating rounds. Each round
// saturates a controller without channels and one with the two channels, and
// measures the floor of the calls (notify-floor.mjs), in turn (odd rounds in
// that order, even rounds reversed), so that a change of the machine's load
// hits all three alike; the own cost of each round is what the channels added
// beyond the floor of the calls they made, and the verdict is on the median.
import { rmSync } from "node:fs";
import { channelsPhase } from "./channels-phase.mjs";
import { stopController } from "./controller-process.mjs";
import { createInstallation } from "./installation.mjs";
import { notifierOwnCost, notifyFloor } from "./notify-floor.mjs";
import { saturate } from "./phases.mjs";
import { load1, median, note } from "./stats.mjs";

/** The target for the notifier's own cost, ms of CPU per run. */
const TARGET_MS = 1;

/** Runs `rounds` rounds of the three phases; prints each round's figures and the median. */
export async function alternateNotifier({ total, concurrency, rounds, floorCalls }) {
  const results = [];
  for (let round = 1; round <= rounds; round++) {
    const order = ["plain", "channels", "floor"];
    if (round % 2 === 0) order.reverse();
    const r = { round, loads: [] };
    for (const part of order) {
      r.loads.push(load1());
      note(`— round ${round}: ${part} (load average ${load1()})`);
      if (part === "plain") {
        const installation = await createInstallation({ concurrency });
        const sat = await saturate(installation, total, `no channels, round ${round}`);
        await stopController(sat.running);
        if (process.env.BENCH_KEEP !== "1") rmSync(installation.dir, { recursive: true, force: true });
        r.sat = sat.result;
      } else if (part === "channels") {
        const phase = await channelsPhase({ total, concurrency, label: `with channels, round ${round}` });
        if (process.env.BENCH_KEEP !== "1") rmSync(phase.installation.dir, { recursive: true, force: true });
        Object.assign(r, { ch: phase.result, chat: phase.chat, received: phase.received, errors: phase.pluginErrors });
      } else r.floor = await notifyFloor(floorCalls);
    }
    r.cost = notifierOwnCost({ sat: r.sat, ch: r.ch, floor: r.floor, chatMessagesPerRun: r.chat.messages / total });
    results.push(r);
  }
  printRounds(results, total);
}

function printRounds(results, total) {
  const f2 = (v) => v.toFixed(2);
  console.log(`
| round | load | runs/s without / with channels | CPU per run of the processes taking part, without / with | added: controller, plugin processes (their floor), spawner and engines, this bench | floor of the calls made | **own cost** | starts / completions covered | plugin errors |
|---|---|---|---|---|---|---:|---|---|`);
  const added = (r, key) => f2(r.ch.participantsPerRun[key] - r.sat.participantsPerRun[key]);
  for (const r of results)
    console.log(
      `| ${r.round} | ${r.loads.join(", ")} | ${r.sat.perSecond.toFixed(1)} / ${r.ch.perSecond.toFixed(1)} | ${f2(r.sat.participantsMsPerRun)} / ${f2(r.ch.participantsMsPerRun)} ms | ${added(r, "controller")}, ${added(r, "plugins")} (${f2(2 * r.floor.pluginProcessMs)}), ${added(r, "engines")}, ${added(r, "bench")} ms | ${f2(r.cost.sentFloor)} ms | **${f2(r.cost.own)} ms** | ${r.chat.starts.size} / ${r.chat.completes.size} of ${total} | ${Object.keys(r.errors).length === 0 ? "0" : JSON.stringify(r.errors)} |`,
    );
  const own = median(results.map((r) => r.cost.own));
  console.log(
    `\nThe notifier's own cost, median of ${results.length} alternating rounds of ${total} runs: **${f2(own)} ms per run** (target ≤ ${TARGET_MS} ms): ${own <= TARGET_MS ? "PASS" : "MISS"}`,
  );
}
