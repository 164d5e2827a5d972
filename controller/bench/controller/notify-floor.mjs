// The notifier's floor: the CPU that the bench's two channels need per run
// with no notifier at all, only the calls themselves, in every process that
// takes part. chat_a: one HTTP POST through undici (what the SDK's HTTP client
// uses) to a node:http server answering like chat.postMessage. webhook_post:
// NotifyStart and NotifyComplete in turn through the SDK host to the real
// plugin process, which POSTs to a node:http hook server. Each run notifies twice (started,
// finished) on each channel. Both servers run in this process, so its CPU
// time counts client and server; the plugin's comes from /proc.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { connectChannel, silentLogger } from "@errand/channel-sdk/host";
import { request } from "undici";
import { ticketBody } from "./tickets.mjs";

const PLUGIN = fileURLToPath(
  new URL("../../../examples/webhook-post/bin/errand-channel-webhook-post.js", import.meta.url),
);
/**
 * The ticket the controller's channels are sent in the bench: what the generic
 * source makes of a bench ticket's body (tickets.mjs), with that body as its
 * raw event, so the floor's calls carry, encode and check what the
 * controller's do. (Until 2026-11-28 the floor sent a smaller ticket without
 * a raw event, which put the cost of those bytes in the "own cost".)
 */
const body = JSON.parse(ticketBody("floor-1"));
const TICKET = {
  id: body.id,
  title: body.title,
  description: body.description,
  ticketType: "",
  repoUrl: body.repo_url,
  externalUrl: "",
  labels: body.labels,
  source: "generic",
  rawEvent: body,
};
const RESULT = {
  success: true,
  summary: "done",
  pullRequestUrl: "https://codehost.example/acme/web/pull/1",
  failureReason: "",
  durationMs: 12,
};
const CONCURRENCY = 16;

/** User + system CPU ms of another process (/proc, 10 ms ticks). */
function processCpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function listen(handler) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = handler(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
      res.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

/** Runs `call` `count` times with CONCURRENCY callers; returns CPU ms per call (this process + `pid`'s). */
async function perCall(call, count, pid) {
  const warm = Math.min(1000, count);
  for (let i = 0; i < warm; i++) await call(i);
  const own = ownCpuMs();
  const other = pid === undefined ? 0 : processCpuMs(pid);
  let next = 0;
  const worker = async () => {
    while (next < count) await call(next++);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const otherMs = pid === undefined ? 0 : processCpuMs(pid) - other;
  return { ownMs: (ownCpuMs() - own) / count, otherMs: otherMs / count };
}

/**
 * Measures the floor with `count` calls per channel. Returns CPU ms per call
 * of each channel (all processes) and per run (two calls on each channel).
 */
export async function notifyFloor(count = 4000) {
  const chat = await listen((body) => JSON.stringify({ ok: true, channel: JSON.parse(body).channel, ts: "1.000001" }));
  const hook = await listen(() => JSON.stringify({ received: true }));
  const channel = await connectChannel({
    command: process.execPath,
    args: [PLUGIN],
    config: { url: `${hook.url}/hook` },
    logger: silentLogger,
  });
  try {
    const body = JSON.stringify({
      channel: "C0BENCH0001",
      text: "Run started",
      blocks: [{ type: "section", text: { type: "mrkdwn", text: "Run started" } }],
    });
    const chatA = await perCall(async () => {
      const res = await request(`${chat.url}/api/chat.postMessage`, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8", authorization: "Bearer x" },
        body,
      });
      await res.body.json();
    }, count);
    // A run's two calls: its start, then its completion (a result to render), alternately.
    const plugin = await perCall(
      (i) =>
        i % 2 === 0
          ? channel.notifyStart(TICKET, { taskRunId: `run-${i}`, engine: "instant", timeoutMs: 5000 })
          : channel.notifyComplete(TICKET, RESULT, { taskRunId: `run-${i - 1}`, timeoutMs: 5000 }),
      count,
      channel.pid,
    );
    const chatAMs = chatA.ownMs;
    const pluginMs = plugin.ownMs + plugin.otherMs;
    return { count, chatAMs, pluginMs, pluginProcessMs: plugin.otherMs, perRunMs: 2 * (chatAMs + pluginMs) };
  } finally {
    await channel.close();
    chat.server.close();
    hook.server.close();
  }
}

/**
 * The notifier's own cost per run: the CPU the channels added to the processes taking part (`added`), less the
 * floor of the calls they made (`sentFloor`). chat_a sends digests when its room falls behind: its floor is the
 * POSTs it made, not two per run.
 */
export function notifierOwnCost({ sat, ch, floor, chatMessagesPerRun }) {
  const added = ch.participantsMsPerRun - sat.participantsMsPerRun;
  const sentFloor = chatMessagesPerRun * floor.chatAMs + 2 * floor.pluginMs;
  return { added, sentFloor, own: added - sentFloor };
}

/** What each part of the processes taking part added per run with the channels. */
const parts = (sat, ch) =>
  [
    ["the controller process", "controller"],
    ["its plugin processes", "plugins"],
    ["its spawner and engines", "engines"],
    ["this bench (clients, chat and hook stand-ins)", "bench"],
  ]
    .map(([label, key]) => `${label} ${(ch.participantsPerRun[key] - sat.participantsPerRun[key]).toFixed(2)} ms`)
    .join(", ");

/**
 * Prints what the floor means for the notifier's target: with `cores` cores
 * doing nothing else, runs with channels cannot go faster than the cores
 * divided by the machine's CPU per run without channels plus the floor. If
 * that ceiling is already below 0.9 × the throughput without channels, no
 * notifier can meet "≤ 10 %" on this machine. The notifier's own cost is the
 * CPU per run that the channels add beyond their floor, counted over the
 * processes that take part (participantsSplitMs: the controller, its plugins and
 * engines, this bench), so that other work on the machine does not count.
 */
export function printNotifierFloor({ sat, ch, floor, cores, chatMessagesPerRun }) {
  const ceiling = (cores * 1000) / (sat.machineMsPerRun + floor.perRunMs);
  const best = Math.min(ceiling, sat.perSecond);
  const machineOwn = ch.machineMsPerRun - sat.machineMsPerRun - floor.perRunMs;
  const { added, sentFloor, own } = notifierOwnCost({ sat, ch, floor, chatMessagesPerRun });
  console.log(
    [
      `\nThe notifier's floor (${floor.count} calls each, 16 at a time, no notifier): chat_a's POST ${floor.chatAMs.toFixed(2)} ms of CPU (client and server), webhook_post's call (NotifyStart and NotifyComplete in turn) ${floor.pluginMs.toFixed(2)} ms (host, plugin process ${floor.pluginProcessMs.toFixed(2)} ms, its POST's server); two of each per run: **${floor.perRunMs.toFixed(2)} ms per run**.`,
      `CPU per run of the processes taking part (the controller, its plugins and engines, this bench): no channels ${sat.participantsMsPerRun.toFixed(2)} ms, two channels ${ch.participantsMsPerRun.toFixed(2)} ms (+${added.toFixed(2)}); beyond the floor of the calls made (chat_a's ${chatMessagesPerRun.toFixed(2)} POSTs per run, webhook_post's start and completion: ${sentFloor.toFixed(2)} ms) **${own.toFixed(2)} ms per run**: the notifier's own cost (target ≤ 1 ms). Of the +${added.toFixed(2)}: ${parts(sat, ch)}. Whole machine (/proc/stat, counts everything else it runs): ${sat.machineMsPerRun.toFixed(2)} and ${ch.machineMsPerRun.toFixed(2)} ms, beyond the floor ${machineOwn.toFixed(2)} ms.`,
      `Ceiling with channels on ${cores} cores: ${cores} × 1000 / (${sat.machineMsPerRun.toFixed(2)} + ${floor.perRunMs.toFixed(2)}) = ${ceiling.toFixed(1)} runs/s, so the notifier's cost is at least **${((1 - best / sat.perSecond) * 100).toFixed(1)} %** here whatever the notifier does (target ≤ 10 %).`,
    ].join("\n"),
  );
}
