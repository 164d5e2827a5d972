import type { Ticket } from "@errand/channel-sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PollAdapter } from "../../../src/sources/polling/poll-adapter.js";
import { createTrackerAAdapter } from "../../../src/vendors/tracker-a/tracker-a-adapter.js";
import { TrackerAError } from "../../../src/vendors/tracker-a/tracker-a-error.js";
import { commentIdFor } from "../../../src/vendors/tracker-a/write-back.js";
import { FAILURE, SUCCESS, taskRun, testContext, trackerAConfig } from "./adapter-kit.js";
import { type FakeLinear, startFakeLinear } from "./fake-linear.js";

let fake: FakeLinear;
let adapter: PollAdapter;
const ctx = testContext();
beforeEach(async () => {
  fake = await startFakeLinear();
  adapter = createTrackerAAdapter(trackerAConfig(fake), fake.token);
  await adapter.prepare(ctx);
});
afterEach(async () => {
  await fake.close();
});

/** The ticket a poll hands over for a new labelled issue. */
async function pickable(): Promise<Ticket> {
  const issue = fake.ws.addIssue({ labels: ["agent"] });
  const candidate = (await adapter.poll(ctx)).find((c) => c.ticket.id === issue.id);
  if (candidate === undefined || candidate.skip !== undefined)
    throw new Error(`ENG issue not pickable: ${candidate?.skip}`);
  return candidate.ticket;
}

describe("tracker_a write-back (spec 3)", () => {
  it("pick-up adds the in-progress label; doing it again changes nothing more", async () => {
    const ticket = await pickable();
    const run = taskRun(ticket);
    await adapter.pickedUp(ticket, run, ctx);
    await adapter.pickedUp(ticket, run, ctx);
    expect(fake.ws.labelsOf("ENG-1")).toEqual(["agent", "agent-in-progress"]);
    expect(fake.ws.changes).toEqual([{ op: "issueUpdate", issue: "ENG-1", added: ["agent-in-progress"], removed: [] }]);
    expect(fake.requests.filter((r) => r.operation === "updateIssue")).toHaveLength(2);
  });

  it("a failure adds the failed label and takes the in-progress label off; the issue is skipped by later polls", async () => {
    const ticket = await pickable();
    const run = taskRun(ticket);
    await adapter.pickedUp(ticket, run, ctx);
    await adapter.finished(ticket, run, FAILURE, ctx);
    expect(fake.ws.changes).toEqual([
      { op: "issueUpdate", issue: "ENG-1", added: ["agent-in-progress"], removed: [] },
      { op: "issueUpdate", issue: "ENG-1", added: ["agent-failed"], removed: ["agent-in-progress"] },
    ]);
    expect(fake.ws.labelsOf("ENG-1")).toEqual(["agent", "agent-failed"]);
    expect(fake.ws.commentsOf("ENG-1")).toEqual([]);
    const [again] = await adapter.poll(ctx);
    expect(again?.skip).toMatch(
      /carries the failed label "agent-failed": a run failed, and failed issues are not retried automatically/,
    );
  });

  it("a success posts one comment with the pull request link, then takes the in-progress label off", async () => {
    const ticket = await pickable();
    const run = taskRun(ticket);
    await adapter.pickedUp(ticket, run, ctx);
    await adapter.finished(ticket, run, SUCCESS, ctx);
    const [comment] = fake.ws.commentsOf("ENG-1");
    expect(comment?.body).toBe(
      `Errand opened a pull request for this issue: https://github.com/acme/shop/pull/7\n\nFixed the login form.\n\nRun \`${run.id}\` (attempt 1).`,
    );
    expect(comment?.id).toBe(commentIdFor(run.id));
    expect(
      fake.ws.changes.map((c) =>
        c.op === "commentCreate" ? "comment" : `+${c.added.join(",")} -${c.removed.join(",")}`,
      ),
    ).toEqual(["+agent-in-progress -", "comment", "+ -agent-in-progress"]);
    expect(fake.ws.labelsOf("ENG-1")).toEqual(["agent"]);
  });

  it("finished twice for the same run posts the comment once (it looks for the run's comment first)", async () => {
    const ticket = await pickable();
    const run = taskRun(ticket);
    await adapter.finished(ticket, run, SUCCESS, ctx);
    await adapter.finished(ticket, run, SUCCESS, ctx);
    expect(fake.ws.commentsOf("ENG-1")).toHaveLength(1);
    expect(fake.ws.changes.filter((c) => c.op === "commentCreate")).toHaveLength(1);
    const lookups = fake.requests.filter((r) => r.operation === "comments");
    expect(lookups.map((r) => r.variables.filter)).toEqual([
      { id: { eq: commentIdFor(run.id) } },
      { id: { eq: commentIdFor(run.id) } },
    ]);
  });

  it("a retry that succeeds gets its own comment and takes the failed label off", async () => {
    const ticket = await pickable();
    await adapter.finished(ticket, taskRun(ticket), FAILURE, ctx);
    const retry = taskRun(ticket);
    await adapter.pickedUp(ticket, retry, ctx);
    await adapter.finished(ticket, retry, SUCCESS, ctx);
    expect(fake.ws.commentsOf("ENG-1")).toHaveLength(1);
    expect(fake.ws.labelsOf("ENG-1")).toEqual(["agent"]);
  });

  it("a success without a pull request says so", async () => {
    const ticket = await pickable();
    await adapter.finished(ticket, taskRun(ticket), { ...SUCCESS, pullRequestUrl: "", summary: "" }, ctx);
    expect(fake.ws.commentsOf("ENG-1")[0]?.body).toMatch(
      /^Errand finished this issue without opening a pull request\.\n\nRun `run_/,
    );
  });

  it("comment ids are UUID v4 shaped, stable per run and distinct across runs", () => {
    expect(commentIdFor("run_a")).toBe(commentIdFor("run_a"));
    expect(commentIdFor("run_a")).not.toBe(commentIdFor("run_b"));
    expect(commentIdFor("run_a")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("a write-back the API refuses throws, saying what was tried (the polling source logs and counts it)", async () => {
    const ticket = await pickable();
    const gone = { ...ticket, id: "00000000-0000-4000-8000-000000000000" };
    const error = await adapter.pickedUp(gone, taskRun(gone), ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrackerAError);
    expect((error as TrackerAError).failure).toBe("rejected");
    expect((error as TrackerAError).message).toMatch(
      /^tracker_a rejected the request to add the in-progress label to https:\/\/linear\.example\/acme\/issue\/ENG-1: .*Entity not found: Issue/,
    );
  });
});
