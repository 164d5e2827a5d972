import { afterEach, describe, expect, it } from "vitest";
import { TrackerBApiError } from "../../../src/vendors/tracker-b/tracker-b-api-error.js";
import { type FakeShortcut, startFakeShortcut } from "./fake-shortcut.js";
import { FAILURE, pollContext, preparedAdapter, SUCCESS, storyTicket, taskRun } from "./helpers.js";

let fake: FakeShortcut;
afterEach(async () => {
  await fake?.close();
});

const kinds = (f: FakeShortcut) =>
  f.events.map((e) => (e.kind === "state" ? `state ${e.from} -> ${e.to}` : `comment ${e.external_id}`));

describe("tracker B write-back (spec 3)", () => {
  it("on pick-up moves the story to the in-progress state, then comments; once, however often it is told", async () => {
    fake = await startFakeShortcut();
    const story = fake.addStory({});
    const adapter = await preparedAdapter(fake);
    const run = taskRun(story.id);
    await adapter.pickedUp(storyTicket(story.id), run, pollContext());
    await adapter.pickedUp(storyTicket(story.id), run, pollContext());
    expect(kinds(fake)).toEqual(["state Ready for Agent -> In Progress", `comment errand:${run.id}:started`]);
    const comment = fake.events[1];
    expect(comment?.kind === "comment" && comment.text).toBe(
      `Errand picked this story up and moved it to Engineering / In Progress. Run \`${run.id}\` (engine \`fixture\`, attempt 1) is working on it.`,
    );
  });

  it("on success moves the story to completed_state_name, then comments the pull request link; once", async () => {
    fake = await startFakeShortcut();
    const story = fake.addStory({});
    const adapter = await preparedAdapter(fake, { completed_state_name: "In Review" });
    const run = taskRun(story.id);
    await adapter.pickedUp(storyTicket(story.id), run, pollContext());
    const ended = { ...run, state: "Succeeded" as const };
    await adapter.finished(storyTicket(story.id), ended, SUCCESS, pollContext());
    await adapter.finished(storyTicket(story.id), ended, SUCCESS, pollContext());
    expect(kinds(fake)).toEqual([
      "state Ready for Agent -> In Progress",
      `comment errand:${run.id}:started`,
      "state In Progress -> In Review",
      `comment errand:${run.id}:finished`,
    ]);
    const last = fake.events[3];
    expect(last?.kind === "comment" && last.text).toBe(
      `Errand finished run \`${run.id}\`. Pull request: https://github.com/acme/shop/pull/7 The story was moved to Engineering / In Review.\n\nFixed it.`,
    );
  });

  it("on success without completed_state_name leaves the state and comments the link", async () => {
    fake = await startFakeShortcut();
    const story = fake.addStory({ state: "In Progress" });
    const adapter = await preparedAdapter(fake);
    const run = { ...taskRun(story.id), state: "Succeeded" as const };
    await adapter.finished(storyTicket(story.id), run, SUCCESS, pollContext());
    expect(kinds(fake)).toEqual([`comment errand:${run.id}:finished`]);
    expect(fake.stateName(story.workflow_state_id)).toBe("In Progress");
    const comment = fake.events[0];
    expect(comment?.kind === "comment" && comment.text).toContain("Pull request: https://github.com/acme/shop/pull/7");
  });

  it("on failure leaves the state and comments the reason and how to retry", async () => {
    fake = await startFakeShortcut();
    const story = fake.addStory({ state: "In Progress" });
    const adapter = await preparedAdapter(fake, { completed_state_name: "Done" });
    const run = { ...taskRun(story.id), state: "Failed" as const };
    await adapter.finished(storyTicket(story.id), run, FAILURE, pollContext());
    expect(kinds(fake)).toEqual([`comment errand:${run.id}:finished`]);
    const comment = fake.events[0];
    expect(comment?.kind === "comment" && comment.text).toBe(
      `Errand run \`${run.id}\` failed: the engine exited with code 3\n\nThe story is not picked up again on its own; \`errand runs retry ${run.id}\` starts a new attempt.`,
    );
  });

  it("leaves a story that is in no trigger state where it is (a webhook ticket), and still comments", async () => {
    fake = await startFakeShortcut();
    const story = fake.addStory({ state: "Unscheduled" });
    const adapter = await preparedAdapter(fake);
    const run = taskRun(story.id);
    const ctx = pollContext();
    await adapter.pickedUp(storyTicket(story.id), run, ctx);
    expect(kinds(fake)).toEqual([`comment errand:${run.id}:started`]);
    expect(ctx.lines.join("\n")).toContain("the story is not in a trigger state; its state is left as is");
  });

  it("keeps the order of pick-up and end for one story even when they overlap", async () => {
    fake = await startFakeShortcut();
    const story = fake.addStory({});
    const adapter = await preparedAdapter(fake, { completed_state_name: "Done" });
    const run = taskRun(story.id);
    await Promise.all([
      adapter.pickedUp(storyTicket(story.id), run, pollContext()),
      adapter.finished(storyTicket(story.id), { ...run, state: "Succeeded" }, SUCCESS, pollContext()),
    ]);
    expect(kinds(fake)).toEqual([
      "state Ready for Agent -> In Progress",
      `comment errand:${run.id}:started`,
      "state In Progress -> Done",
      `comment errand:${run.id}:finished`,
    ]);
  });

  it("throws what went wrong: a deleted story, a ticket id that is no story id", async () => {
    fake = await startFakeShortcut();
    const adapter = await preparedAdapter(fake);
    const gone = await adapter.pickedUp(storyTicket(424242), taskRun(424242), pollContext()).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(TrackerBApiError);
    expect(gone).toMatchObject({
      status: 404,
      code: "ERR_TICKET_SOURCE",
      failure: "not_found",
      message: "tracker B answered 404 to GET /api/v3/stories/424242: Resource not found. / not_found",
    });
    const odd = { ...storyTicket(1), id: "ABC-1" };
    await expect(adapter.finished(odd, taskRun(1), SUCCESS, pollContext())).rejects.toMatchObject({
      code: "ERR_NOT_FOUND",
    });
    expect(fake.events).toEqual([]);
  });
});
