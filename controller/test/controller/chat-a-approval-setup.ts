import { readFileSync, writeFileSync } from "node:fs";
import { runCli } from "../helpers/cli.js";
import { chatAHeaders, nowSeconds } from "../helpers/sign.js";
import { FAKE_CHAT_A_TOKEN, type FakeChatA, startFakeChatA } from "../notify/helpers/fake-chat-a.js";
import { createHarness, eventually, type Harness, SECRET_ENV } from "./harness.js";

export const CHAT_SECRET = "chat-a-signing-secret-for-approvals";
export const ENV = {
  ...SECRET_ENV,
  ERRAND_SECRET_CHAT_SIGNING: CHAT_SECRET,
  ERRAND_SECRET_CHAT_A_TOKEN: FAKE_CHAT_A_TOKEN,
};
export const CHANNEL = "C0000000001";

/** What a test closes after it, last opened first. */
export type Closers = Array<{ close(): Promise<void> | void }>;

/** The strict chat A fake, and a harness whose tickets all wait for approval, U0ALICE approving, chat A configured. */
export async function chatAApprovalHarness(open: Closers): Promise<{ chat: FakeChatA; h: Harness }> {
  const chat = await startFakeChatA();
  open.push(chat);
  const h = createHarness({
    engine: "ok.sh",
    guardrails: "  require_approval: { always: true }\n  approvers: [U0ALICE]\n",
    extra: `notifications:
  channels:
    - backend: chat_a
      config: { channel_id: ${CHANNEL}, token_secret: chat-a-token, api_base_url: "${chat.apiBaseUrl}", min_interval_ms: 0 }
`,
  });
  const text = readFileSync(h.configFile, "utf8").replace(
    "webhook:\n",
    "webhook:\n  secrets:\n    chat_a: { secret: chat-signing }\n",
  );
  writeFileSync(h.configFile, text);
  return { chat, h };
}

/** `errand run` on `configFile`, stopped after the test (or earlier, by its `stop`). */
export async function startErrand(open: Closers, configFile: string) {
  const cli = runCli(["run", "--config", configFile], { env: ENV });
  const port = await cli.ready;
  const stop = async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill("SIGTERM");
    await cli.exited;
  };
  open.push({ close: stop });
  return { cli, port, stop };
}

export type Button = { action_id: string; value: string };

/** The approval message chat A got for `runId`: its ts and its two buttons. */
export async function approvalMessage(chat: FakeChatA, runId: string) {
  // The channel's waiting notice names the run too (`run_…` in its context): the approval message is the one with buttons.
  return eventually("the approval message", () => {
    for (const message of chat.accepted) {
      if (!JSON.stringify(message.blocks).includes(`\`${runId}\``)) continue;
      const actions = (message.blocks as { type: string; elements?: Button[] }[]).find((b) => b.type === "actions");
      if (!actions?.elements) continue;
      const [approve, reject] = actions.elements as [Button, Button];
      return { ts: message.ts, approve, reject };
    }
    return undefined;
  });
}

/** A block_actions callback as chat A posts it: a form with a JSON `payload`. */
export function callback(button: Button, user: string, ts: string, value = button.value): string {
  const payload = {
    type: "block_actions",
    trigger_id: `trig-${Math.random()}`,
    user: { id: user, username: user.toLowerCase() },
    channel: { id: CHANNEL },
    container: { type: "message", message_ts: ts, channel_id: CHANNEL },
    message: { ts, type: "message" },
    actions: [{ action_id: button.action_id, value, type: "button", block_id: "errand_approval" }],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/** Posts a callback to the intake, signed as chat A signs it unless `headers` are given. */
export function click(
  port: number,
  body: string,
  headers: Record<string, string> = chatAHeaders(CHAT_SECRET, body, nowSeconds()),
) {
  return fetch(`http://127.0.0.1:${port}/webhooks/chat`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
  });
}
