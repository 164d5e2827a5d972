// The controller with two channels (chat_a in-process, the webhook_post
// plugin), both posting to stand-ins in this process: saturated, then
// stopped once every start and completion reached them (or 10 s passed).
import { chatCoverage } from "./chat-coverage.mjs";
import { stopController } from "./controller-process.mjs";
import { CHAT_TOKEN, createInstallation } from "./installation.mjs";
import { saturate } from "./phases.mjs";

const { startDemoTargets } = await import(new URL("../../dist/demo/demo-targets.js", import.meta.url).href);

/**
 * Saturates a fresh installation with channels with `total` tickets. Returns the saturation's result, what each
 * target received, the chat coverage and `agent_plugin_errors_total` by plugin; the controller is stopped.
 */
export async function channelsPhase({ total, concurrency, label }) {
  const received = { chat_a: 0, webhook_post: 0 };
  const chatMessages = [];
  const targets = await startDemoTargets(CHAT_TOKEN, (m) => {
    received[m.target]++;
    if (m.target === "chat_a") chatMessages.push(m);
  });
  try {
    const installation = await createInstallation({ concurrency, targets });
    const ch = await saturate(installation, total, label);
    // Runs are stored as ended before their `finished` notifications arrive, and chat_a sends what waits as digests: give the last ones a moment.
    const allCovered = () => {
      const covered = chatCoverage(chatMessages);
      return covered.starts.size >= total && covered.completes.size >= total && received.webhook_post >= 2 * total;
    };
    for (let i = 0; i < 100 && !allCovered(); i++) await new Promise((r) => setTimeout(r, 100));
    const metrics = await (await fetch(`http://127.0.0.1:${installation.opsPort}/metrics`)).text();
    const pluginErrors = Object.fromEntries(
      [...metrics.matchAll(/^agent_plugin_errors_total\{plugin="([^"]*)"\} (\d+)/gm)].map((m) => [m[1], Number(m[2])]),
    );
    const chat = chatCoverage(chatMessages);
    await stopController(ch.running);
    return { result: ch.result, installation, received, chat, pluginErrors };
  } finally {
    await targets.close();
  }
}
