import { spawnSync } from "node:child_process";
import { hostname, userInfo } from "node:os";
import { resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { FakeChatA } from "../notify/helpers/fake-chat-a.js";
import {
  approvalMessage,
  CHANNEL,
  type Closers,
  callback,
  chatAApprovalHarness,
  click,
  ENV,
  startErrand,
} from "./chat-a-approval-setup.js";
import { eventually, finished, type Harness, postTicket, runsOf, startInProcess, ticketBody } from "./harness.js";

// The linked bin (build first): decisions come from another process, as an operator's do.
const BIN = resolve(import.meta.dirname, "../../../node_modules/.bin/errand");
const WHO = `${userInfo().username} (from ${hostname()}) with the errand CLI`;
/** The updated message's text: `<what> at <ISO time>: run <id>`. */
const said = (what: string, runId: string) =>
  new RegExp(`^${what.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} at (\\S+): run ${runId}$`);

// Each test starts `errand run` processes and waits for sweeps: bounds for a loaded 2-core machine, not speed targets.
vi.setConfig({ testTimeout: 90_000 });

const open: Closers = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

function errand(h: Harness, ...args: string[]) {
  const r = spawnSync(BIN, [...args, "--config", h.configFile], { encoding: "utf8", timeout: 20_000 });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
}

/** Posts a ticket, and waits for its run to wait and its approval message to be in chat A. */
async function waitingRun(chat: FakeChatA, h: Harness, port: number) {
  const t = ticketBody();
  expect((await postTicket(port, t.body)).status).toBe(200);
  const store = await h.openStore();
  open.push(store);
  const [run] = await runsOf(store, t.id);
  const runId = run?.id ?? "";
  expect(run?.state).toBe("AwaitingApproval");
  return { store, runId, ticketId: t.id, message: await approvalMessage(chat, runId) };
}

/** chat.update calls on the message `ts`. */
const updatesOf = (chat: FakeChatA, ts: string) => chat.updates.filter((u) => u.ts === ts);

/** Waits for the first update of `ts`, then long enough for several sweeps, and returns every update of it. */
async function settledUpdates(chat: FakeChatA, ts: string) {
  await eventually("the update of the approval message", () => updatesOf(chat, ts)[0], 45_000);
  await new Promise((r) => setTimeout(r, 2500));
  return updatesOf(chat, ts);
}

const hasButtons = (blocks: unknown) => JSON.stringify(blocks).includes("agent_approval_");

describe("chat A's approval message says how the wait ended, whatever ended it (a real errand run)", () => {
  it("approved with errand runs approve: the message is updated once, with who, how and when, without buttons", async () => {
    const { chat, h } = await chatAApprovalHarness(open);
    const { cli, port } = await startErrand(open, h.configFile);
    const { store, runId, ticketId, message } = await waitingRun(chat, h, port);
    const before = Date.now();
    errand(h, "runs", "approve", runId, "--reason", "reviewed");
    expect(await finished(store, ticketId)).toMatchObject({ id: runId, state: "Succeeded" });
    const [update, ...more] = await settledUpdates(chat, message.ts);
    expect(more).toEqual([]);
    expect(update).toMatchObject({ channel: CHANNEL, ts: message.ts });
    expect(update?.text).toMatch(said(`Approved by ${WHO}`, runId));
    const at = Date.parse(update?.text.match(/ at (\S+): run/)?.[1] ?? "");
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect(hasButtons(update?.blocks)).toBe(false);
    expect(JSON.stringify(update?.blocks)).toContain("reviewed");

    // Late clicks on the old buttons (an approver's, anyone's): refused, and the message is not touched again.
    expect((await click(port, callback(message.approve, "U0ALICE", message.ts))).status).toBe(200);
    expect((await click(port, callback(message.reject, "U0MALLORY", message.ts))).status).toBe(200);
    await cli.waitForStderr(/approval decision refused.*not_approver/);
    await new Promise((r) => setTimeout(r, 1500));
    expect(updatesOf(chat, message.ts)).toHaveLength(1);
    for (const r of chat.requests) expect(r.answer.ok).toBe(true);
  });

  it("a post chat A fails at first is tried again: the run's approval message still comes, once", async () => {
    const { chat, h } = await chatAApprovalHarness(open);
    const { port } = await startErrand(open, h.configFile);
    // The run's first two calls to chat A (its waiting notice and its approval message, in either order) fail.
    chat.script({ status: 500, error: "internal_error" }, { status: 500, error: "internal_error" });
    const { runId, message } = await waitingRun(chat, h, port);
    expect(chat.requests.filter((r) => r.status === 500)).toHaveLength(2);
    const withButtons = chat.accepted.filter((m) => JSON.stringify(m.blocks).includes(`agent_approval_approve`));
    expect(withButtons.map((m) => m.ts)).toEqual([message.ts]);
    expect(runId).toMatch(/^run_/);
  });

  it("rejected while no controller ran: the next one updates the message, once, across restarts", async () => {
    const { chat, h } = await chatAApprovalHarness(open);
    const first = await startErrand(open, h.configFile);
    const { runId, message } = await waitingRun(chat, h, first.port);
    // Let the first controller record the message it posted before it stops.
    await new Promise((r) => setTimeout(r, 1000));
    await first.stop();
    errand(h, "runs", "reject", runId, "--reason", "not now");
    expect(updatesOf(chat, message.ts)).toEqual([]);

    const second = await startErrand(open, h.configFile);
    const updates = await settledUpdates(chat, message.ts);
    expect(updates).toHaveLength(1);
    expect(updates[0]?.text).toMatch(said(`Rejected by ${WHO}`, runId));
    expect(JSON.stringify(updates[0]?.blocks)).toContain("not now");
    expect(hasButtons(updates[0]?.blocks)).toBe(false);

    await second.stop();
    await startErrand(open, h.configFile);
    await new Promise((r) => setTimeout(r, 2500));
    expect(updatesOf(chat, message.ts)).toHaveLength(1);
  });

  it("timed out, or cancelled with errand runs cancel: each message is updated once", async () => {
    const { chat, h } = await chatAApprovalHarness(open);
    // In process: the timeout's least configurable value is a minute.
    const c = await startInProcess(h, (config) => void (config.guardrails.approvalTimeoutMs = 4000), ENV);
    open.push({ close: () => c.stop() });
    const cancelled = await waitingRun(chat, h, c.webhookPort);
    errand(h, "runs", "cancel", cancelled.runId);
    const late = await waitingRun(chat, h, c.webhookPort);

    const [stopped, ...more] = await settledUpdates(chat, cancelled.message.ts);
    expect(more).toEqual([]);
    expect(stopped?.text).toMatch(said(`Cancelled by ${WHO}`, cancelled.runId));
    expect(hasButtons(stopped?.blocks)).toBe(false);

    expect(await finished(late.store, late.ticketId, 15_000)).toMatchObject({ state: "Refused" });
    const updates = await settledUpdates(chat, late.message.ts);
    expect(updates).toHaveLength(1);
    expect(updates[0]?.text).toMatch(said("Timed out", late.runId));
    expect(JSON.stringify(updates[0]?.blocks)).toContain("approval timed out after 4s");
    expect(hasButtons(updates[0]?.blocks)).toBe(false);
  });

  it("approved in the console: the message names the console token's label and the console", async () => {
    const { chat, h } = await chatAApprovalHarness(open);
    const c = await startInProcess(
      h,
      (config) => {
        config.console.tokenSecret = "console-token";
        config.console.tokenLabel = "ops-alice";
        config.guardrails.approvers = ["U0ALICE", "ops-alice"];
      },
      { ...ENV, ERRAND_SECRET_CONSOLE_TOKEN: "console-token-for-approvals" },
    );
    open.push({ close: () => c.stop() });
    const { runId, message } = await waitingRun(chat, h, c.webhookPort);
    const response = await fetch(`http://127.0.0.1:${c.controller.ops.address?.port}/console/runs/${runId}/approve`, {
      method: "POST",
      headers: { authorization: "Bearer console-token-for-approvals" },
      redirect: "manual",
    });
    expect(response.status).toBeLessThan(400);
    const updates = await settledUpdates(chat, message.ts);
    expect(updates).toHaveLength(1);
    expect(updates[0]?.text).toMatch(
      new RegExp(`^Approved by ops-alice \\(from [^)]+\\) in the console at \\S+: run ${runId}$`),
    );
    expect(hasButtons(updates[0]?.blocks)).toBe(false);
  });
});
