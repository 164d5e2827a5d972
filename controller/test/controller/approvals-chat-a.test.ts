import { afterEach, describe, expect, it } from "vitest";
import { chatAHeaders, nowSeconds } from "../helpers/sign.js";
import {
  approvalMessage,
  CHANNEL,
  CHAT_SECRET,
  type Closers,
  callback,
  chatAApprovalHarness,
  click,
  startErrand,
} from "./chat-a-approval-setup.js";
import { eventually, finished, postTicket, runsOf, ticketBody } from "./harness.js";

const open: Closers = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** A real `errand run` whose tickets all wait for approval, U0ALICE approving, chat A's API faked strictly. */
async function setUp() {
  const { chat, h } = await chatAApprovalHarness(open);
  const { cli, port, stop } = await startErrand(open, h.configFile);
  return { chat, h, cli, port, stop };
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
    await startErrand(open, h.configFile);
    // Several sweeps of the new controller: the store's mark says the wait was announced already.
    await new Promise((r) => setTimeout(r, 2500));
    expect((await store.getRun(runId))?.state).toBe("AwaitingApproval");
    expect(aboutRun()).toBe(posted);
  });
});
