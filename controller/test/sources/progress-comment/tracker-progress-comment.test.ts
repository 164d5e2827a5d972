import { afterEach, describe, expect, it } from "vitest";
import { isTerminal } from "../../../src/runs/task-run.js";
import { createHarness, eventually, type InProcess, startInProcess } from "../../controller/harness.js";
import { type FakeLinear, startFakeLinear } from "../tracker-a/fake-linear.js";
import { type FakeShortcut, startFakeShortcut } from "../tracker-b/fake-shortcut.js";

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** A controller polling a tracker with `ticketing` written as YAML; `steps.sh` reports progress and succeeds. */
async function controller(ticketing: string, env: Record<string, string>): Promise<InProcess> {
  const h = createHarness({ engine: "steps.sh", extra: `ticketing:\n${ticketing}` });
  const c = await startInProcess(h, undefined, env);
  closing.push(() => c.stop());
  return c;
}

async function ended(c: InProcess, source: string, id: string) {
  return eventually(`the run of ${id}`, async () =>
    (await c.controller.store.listRuns({ ticket: { source, id } })).find((r) => isTerminal(r.state)),
  );
}

const PR = "https://github.com/acme/shop/pull/9";

describe("the progress comment on trackers (ticketing.config.progress_comment)", () => {
  it("tracker A: one comment created at the start and edited in place to the outcome, instead of the completion comment", async () => {
    const fake: FakeLinear = await startFakeLinear();
    closing.push(() => fake.close());
    fake.ws.addIssue({ title: "Fix the login form", labels: ["agent"] });
    const issue = fake.ws.issue("ENG-1");
    const c = await controller(
      `  backend: tracker_a\n  poll_interval: 1h\n  config:\n    token_secret: tracker-a-token\n    team_id: ${fake.ws.team("ENG").id}\n    labels: [agent]\n    api_base_url: ${fake.url}\n    progress_comment: true\n`,
      { ERRAND_SECRET_TRACKER_A_TOKEN: fake.token },
    );
    const run = await ended(c, "tracker_a", issue.id);
    expect(run.state).toBe("Succeeded");
    // The write-back's last step (the in-progress label off) comes with the same event as the final edit.
    await eventually("the labels", () => (fake.ws.changes.length === 3 ? true : undefined));
    // The final edit waits for its 10 s turn; stopping writes it at once.
    await c.stop();
    const comments = fake.ws.commentsOf("ENG-1");
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body).toContain(`**Errand finished: Succeeded** · run \`${run.id}\``);
    expect(comments[0]?.body).toContain(`Pull request: ${PR}`);
    expect(comments[0]?.body).not.toContain("<!--");
    // The comment and the labels are written by two observers of the same events: their order is free.
    expect(fake.ws.changes.map((ch) => ch.op).sort()).toEqual(["commentCreate", "issueUpdate", "issueUpdate"]);
    expect(fake.requests.filter((r) => r.operation === "updateComment")).toHaveLength(1);
  });

  it("tracker B: one story comment created at the start and edited in place to the outcome, instead of the two comments", async () => {
    const fake: FakeShortcut = await startFakeShortcut();
    closing.push(() => fake.close());
    const story = fake.addStory({ name: "Fix the cart" });
    const c = await controller(
      `  backend: tracker_b\n  poll_interval: 1h\n  config:\n    token_secret: tracker-b-token\n    api_base_url: ${fake.url}\n    workflow_state_name: Ready for Agent\n    in_progress_state_name: In Progress\n    owner_mention_name: errand-bot\n    progress_comment: true\n`,
      { ERRAND_SECRET_TRACKER_B_TOKEN: fake.token },
    );
    const run = await ended(c, "tracker_b", String(story.id));
    expect(run.state).toBe("Succeeded");
    await eventually("the comment", () => (story.comments.length === 1 ? true : undefined));
    await c.stop();
    expect(story.comments).toHaveLength(1);
    expect(story.comments[0]?.text).toContain(`**Errand finished: Succeeded** · run \`${run.id}\``);
    expect(story.comments[0]?.text).toContain(`Pull request: ${PR}`);
    expect(fake.events.map((e) => e.kind).sort()).toEqual(["comment", "state"]);
    const puts = fake.requests.filter((r) => r.method === "PUT" && /\/comments\/\d+$/.test(r.path));
    expect(puts.map((r) => r.status)).toEqual([200]);
  });
});
