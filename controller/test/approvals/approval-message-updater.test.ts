import { join } from "node:path";
import type { Logger } from "@errand/channel-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { createApprovalMessageUpdater, MAX_MESSAGE_ATTEMPTS } from "../../src/approvals/approval-message-updater.js";
import { createChatAApi } from "../../src/approvals/chat-a-api.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { FAKE_CHAT_A_TOKEN, type FakeChatA, startFakeChatA } from "../notify/helpers/fake-chat-a.js";
import { ticket } from "../store/conformance/support.js";

const CHANNEL = "C0000000001";
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** A logger that keeps each line's level and message. */
function recordingLogger(lines: string[]): Logger {
  const log = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
  const logger: Logger = {
    debug: log("debug"),
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
    child: () => logger,
  };
  return logger;
}

/** A store with one run approved by the CLI whose waiting message is in the strict chat A fake. */
async function setUp() {
  const chat = await startFakeChatA();
  open.push(chat);
  const store = await createSqliteStore({
    path: join(tempDir("errand-updater-"), "errand.db"),
    checkpointIntervalMs: 0,
  });
  open.push(store);
  const [outcome] = await store.acceptTickets([ticket("t1")], "default", { needsApproval: () => true });
  const runId = (outcome as { runId: string }).runId;
  const api = createChatAApi({
    apiBaseUrl: chat.apiBaseUrl.replace(/\/+$/, ""),
    token: FAKE_CHAT_A_TOKEN,
    channelId: CHANNEL,
  });
  const posted = await api.post({
    text: "Awaiting approval",
    blocks: [{ type: "section", text: { type: "mrkdwn", text: "waits" } }],
  });
  await store.recordApprovalMessage(runId, posted.channel, posted.ts);
  const actor = { kind: "cli" as const, name: "alice", from: "host-1" };
  await store.transition({ runId, from: ["AwaitingApproval"], to: "Queued", reason: "approved by cli alice", actor });
  const lines: string[] = [];
  const updater = createApprovalMessageUpdater({ store, api, logger: recordingLogger(lines), retryAfterMs: 0 });
  return { chat, store, runId, ts: posted.ts, lines, updater };
}

/** chat.update calls: every request but the one post. */
const updateCalls = (chat: FakeChatA) => chat.requests.length - 1;

describe("approval message updater", () => {
  it("tries a failed chat.update again on a later sweep, then marks it: one update, never more", async () => {
    const { chat, runId, ts, lines, updater } = await setUp();
    chat.script({ error: "ratelimited" });
    await updater.updateDecided();
    expect(chat.updates).toEqual([]);
    expect(lines).toContain("warn could not update the approval message in chat A; trying again later");
    await updater.updateDecided();
    expect(chat.updates).toHaveLength(1);
    expect(chat.updates[0]).toMatchObject({ channel: CHANNEL, ts });
    expect(chat.updates[0]?.text).toMatch(
      new RegExp(`^Approved by alice \\(from host-1\\) with the errand CLI at \\S+: run ${runId}$`),
    );
    await updater.updateDecided();
    await updater.updateRun(runId);
    expect(chat.updates).toHaveLength(1);
  });

  it("gives up after a bounded number of failed attempts, logged as an error", async () => {
    const { chat, store, lines, updater } = await setUp();
    chat.script(...Array.from({ length: MAX_MESSAGE_ATTEMPTS }, () => ({ error: "channel_not_found" })));
    for (let i = 0; i < MAX_MESSAGE_ATTEMPTS + 2; i++) await updater.updateDecided();
    expect(updateCalls(chat)).toBe(MAX_MESSAGE_ATTEMPTS);
    expect(chat.updates).toEqual([]);
    expect(lines.filter((l) => l.startsWith("warn could not update"))).toHaveLength(MAX_MESSAGE_ATTEMPTS - 1);
    expect(lines).toContain("error gave up updating the approval message in chat A: it keeps its buttons");
    expect(await store.takeApprovalMessageUpdates({ limit: 5, leaseMs: 1, maxAttempts: MAX_MESSAGE_ATTEMPTS })).toEqual(
      [],
    );
  });
});
