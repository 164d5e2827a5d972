import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { chatAHeaders, nowSeconds } from "../helpers/sign.js";
import { FAKE_CHAT_A_TOKEN, type FakeChatA, startFakeChatA } from "../notify/helpers/fake-chat-a.js";
import { createHarness, eventually, finished, postTicket, runsOf, SECRET_ENV, ticketBody } from "./harness.js";

const CHAT_SECRET = "chat-a-signing-secret-for-approvals";
const ENV = { ...SECRET_ENV, ERRAND_SECRET_CHAT_SIGNING: CHAT_SECRET, ERRAND_SECRET_CHAT_A_TOKEN: FAKE_CHAT_A_TOKEN };
const CHANNEL = "C0000000001";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** A real `errand run` whose tickets all wait for approval, U0ALICE approving, chat A's API faked strictly. */
async function setUp() {
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
  const { cli, port, stop } = await startErrand(h.configFile);
  return { chat, h, cli, port, stop };
}

/** `errand run` on `configFile`, stopped after the test (or earlier, by its `stop`). */
async function startErrand(configFile: string) {
  const cli = runCli(["run", "--config", configFile], { env: ENV });
  const port = await cli.ready;
  const stop = async () => {
    if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill("SIGTERM");
    await cli.exited;
  };
  open.push({ close: stop });
  return { cli, port, stop };
}

type Button = { action_id: string; value: string };

/** The approval message chat A got for `runId`: its ts and its two buttons. */
async function approvalMessage(chat: FakeChatA, runId: string) {
  return eventually("the approval message", () => {
    const message = chat.accepted.find((m) => JSON.stringify(m.blocks).includes(`\`${runId}\``));
    const actions = (message?.blocks as { type: string; elements?: Button[] }[] | undefined)?.find(
      (b) => b.type === "actions",
    );
    if (!message || !actions?.elements) return undefined;
    const [approve, reject] = actions.elements as [Button, Button];
    return { ts: message.ts, approve, reject };
  });
}

/** A block_actions callback as chat A posts it: a form with a JSON `payload`. */
function callback(button: Button, user: string, ts: string, value = button.value): string {
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

function click(
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

describe("approvals through chat A's buttons (a real errand run)", () => {
  it("posts Approve and Reject; refuses unsigned, forged and non-approver clicks; a signed approval runs it once", async () => {
    const { chat, h, cli, port } = await setUp();
    const t = ticketBody();
    expect((await postTicket(port, t.body)).status).toBe(200);
    const store = await h.openStore();
    open.push(store);
    const [run] = await runsOf(store, t.id);
    const runId = run?.id ?? "";
    expect(run?.state).toBe("AwaitingApproval");
    const message = await approvalMessage(chat, runId);
    expect(message.approve.action_id).toBe("agent_approval_approve");
    expect(message.reject.action_id).toBe("agent_approval_reject");
    expect(message.approve.value).toMatch(new RegExp(`^${runId}\\.[0-9a-f]{64}$`));

    // Unsigned: the intake refuses it before anything reads it.
    expect((await click(port, callback(message.approve, "U0ALICE", message.ts), {})).status).toBe(401);

    // Forged: another run id with this run's HMAC, a changed HMAC, the reject value on the approve button.
    const forgedId = message.approve.value.replace(runId, "run_00000000000000000000000000");
    const forgedMac = `${message.approve.value.slice(0, -1)}${message.approve.value.endsWith("0") ? "1" : "0"}`;
    for (const value of [forgedId, forgedMac, message.reject.value]) {
      expect((await click(port, callback(message.approve, "U0ALICE", message.ts, value))).status).toBe(200);
    }
    await cli.waitForStderr(/approval callback refused: its value is not signed(.|\n)*not signed(.|\n)*not signed/);

    // Not an approver: refused, logged, and the message says so with its buttons kept.
    expect((await click(port, callback(message.approve, "U0MALLORY", message.ts))).status).toBe(200);
    const note = await eventually("the refusal on the message", () =>
      chat.updates.find((u) => JSON.stringify(u.blocks).includes("U0MALLORY")),
    );
    expect(JSON.stringify(note.blocks)).toContain("not in guardrails.approvers");
    expect(JSON.stringify(note.blocks)).toContain("agent_approval_approve");
    await cli.waitForStderr(/approval decision refused.*not_approver/);
    expect((await store.getRun(runId))?.state).toBe("AwaitingApproval");

    // Signed, by an approver: decided, run, and the message says who and when, without buttons.
    const approval = callback(message.approve, "U0ALICE", message.ts);
    const headers = chatAHeaders(CHAT_SECRET, approval, nowSeconds());
    expect((await click(port, approval, headers)).status).toBe(200);
    expect(await finished(store, t.id)).toMatchObject({ id: runId, state: "Succeeded" });
    const decided = await eventually("the decided message", () =>
      chat.updates.find((u) => u.text.startsWith("Approved by U0ALICE")),
    );
    expect(decided).toMatchObject({ channel: CHANNEL, ts: message.ts });
    expect(JSON.stringify(decided.blocks)).not.toContain("agent_approval_");
    expect((await store.transitions(runId)).find((x) => x.to === "Queued")?.actor).toEqual({
      kind: "chat_a",
      name: "U0ALICE",
      from: `chat A channel ${CHANNEL}`,
    });

    // Replayed (the same signed request again): no second decision, no second run, no second update.
    const updates = chat.updates.length;
    expect((await click(port, approval, headers)).status).toBe(200);
    await cli.waitForStderr(/approval decision refused.*not_awaiting/);
    expect(h.executions()).toEqual([runId]);
    expect((await store.transitions(runId)).map((x) => x.to)).toEqual([
      "AwaitingApproval",
      "Queued",
      "Running",
      "Succeeded",
    ]);
    expect(chat.updates).toHaveLength(updates);
    for (const r of chat.requests) expect(r.answer.ok).toBe(true);
  });
  it("announces a run once: a restarted controller does not post the approval message again", async () => {
    const { chat, h, port, stop } = await setUp();
    const t = ticketBody();
    expect((await postTicket(port, t.body)).status).toBe(200);
    const store = await h.openStore();
    open.push(store);
    const [run] = await runsOf(store, t.id);
    const runId = run?.id ?? "";
    await approvalMessage(chat, runId);
    const aboutRun = () => chat.accepted.filter((m) => JSON.stringify(m).includes(runId)).length;
    // Let the first controller finish its announcement (the buttons and the channel's notice) before it stops.
    await new Promise((r) => setTimeout(r, 1000));
    const posted = aboutRun();
    await stop();
    await startErrand(h.configFile);
    // Several sweeps of the new controller: the store's mark says the wait was announced already.
    await new Promise((r) => setTimeout(r, 2500));
    expect((await store.getRun(runId))?.state).toBe("AwaitingApproval");
    expect(aboutRun()).toBe(posted);
  });
});
