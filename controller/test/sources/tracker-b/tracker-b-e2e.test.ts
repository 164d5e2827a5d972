import { afterEach, describe, expect, it } from "vitest";
import { isTerminal, type TaskRun } from "../../../src/runs/task-run.js";
import type { PollingSource } from "../../../src/sources/polling/polling-source.js";
import type { Store } from "../../../src/store/store.js";
import { createHarness, eventually, type Harness, type InProcess, startInProcess } from "../../controller/harness.js";
import { type FakeShortcut, startFakeShortcut } from "./fake-shortcut.js";

const started: InProcess[] = [];
let fake: FakeShortcut;
afterEach(async () => {
  for (const c of started.splice(0)) await c.stop();
  await fake?.close();
});

/** A controller polling the fake; polls only at start and on pollNow() (the interval is an hour). */
async function startPolling(
  engine: string,
  extraConfig = "",
): Promise<{ c: InProcess; h: Harness; poller: PollingSource }> {
  const h = createHarness({
    engine,
    extra: `ticketing:
  backend: tracker_b
  poll_interval: 1h
  config:
    token_secret: tracker-b-token
    api_base_url: ${fake.url}
    workflow_state_name: Ready for Agent
    in_progress_state_name: In Progress
    owner_mention_name: errand-bot
${extraConfig}`,
  });
  const c = await startInProcess(
    h,
    (config) => {
      config.webhook.allowUnsignedTrackerB = true;
    },
    { ERRAND_SECRET_TRACKER_B_TOKEN: fake.token },
  );
  started.push(c);
  const poller = c.controller.sources.find((s) => s.name === "tracker_b") as PollingSource;
  // The first poll runs at start without being awaited; let it settle so a test's faults meet only its own polls.
  await eventually("the first poll", async () =>
    (await metric(c, "errand_source_polls_total", { source: "tracker_b" })) >= 1 ? true : undefined,
  );
  return { c, h, poller };
}

const runsOf = async (store: Store, id: number) => store.listRuns({ ticket: { source: "tracker_b", id: String(id) } });
const finished = (store: Store, id: number) =>
  eventually(`the run of story ${id} to end`, async () => (await runsOf(store, id)).find((r) => isTerminal(r.state)));
const steps = (f: FakeShortcut) =>
  f.events.map((e) => (e.kind === "state" ? `${e.from} -> ${e.to}` : `comment ${e.external_id?.split(":")[2]}`));
/** Sum of a counter's series that carry `labels`. */
async function metric(c: InProcess, name: string, labels: Record<string, string>): Promise<number> {
  const values = (await c.controller.registry.getSingleMetric(name)?.get())?.values ?? [];
  return values
    .filter((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))
    .reduce((sum, v) => sum + v.value, 0);
}

describe("tracker B end to end: the fake, the controller, a real engine process", () => {
  it("a story in the trigger state gets one run, and spec 3's states and comments appear in order", async () => {
    fake = await startFakeShortcut();
    const story = fake.addStory({ name: "Fix the cart" });
    const { c, h, poller } = await startPolling("ok.sh", "    completed_state_name: In Review\n");
    const run = await finished(c.controller.store, story.id);
    expect(run.state).toBe("Succeeded");
    await eventually("the completion comment", () => (fake.events.length >= 4 ? true : undefined));
    expect(steps(fake)).toEqual([
      "Ready for Agent -> In Progress",
      "comment started",
      "In Progress -> In Review",
      "comment finished",
    ]);
    const done = fake.events[3];
    expect(done?.kind === "comment" && done.text).toContain("Pull request: https://github.com/acme/shop/pull/7");
    // A person puts the story back: identity (tracker_b, id) keeps it from running twice.
    fake.move(story.id, "Ready for Agent");
    await poller.pollNow();
    expect(await metric(c, "errand_source_tickets_total", { source: "tracker_b", outcome: "existing" })).toBe(1);
    expect(await runsOf(c.controller.store, story.id)).toHaveLength(1);
    expect(h.executions()).toEqual([run.id]);
    expect(fake.events).toHaveLength(4);
  });

  it("a failed run leaves the story in progress with the reason, and it is not picked up again", async () => {
    fake = await startFakeShortcut();
    const story = fake.addStory({});
    const { c, h, poller } = await startPolling("crash.sh", "    completed_state_name: Done\n");
    const run = await finished(c.controller.store, story.id);
    expect(run.state).toBe("Failed");
    await eventually("the failure comment", () => (fake.events.length >= 3 ? true : undefined));
    expect(steps(fake)).toEqual(["Ready for Agent -> In Progress", "comment started", "comment finished"]);
    const failure = fake.events[2];
    expect(failure?.kind === "comment" && failure.text).toMatch(
      new RegExp(
        `^Errand run \`${run.id}\` failed: .*\n\nThe story is not picked up again on its own; \`errand runs retry ${run.id}\``,
      ),
    );
    expect(fake.stateName(fake.stories.get(story.id)?.workflow_state_id ?? 0)).toBe("In Progress");
    fake.move(story.id, "Ready for Agent");
    await poller.pollNow();
    expect(await runsOf(c.controller.store, story.id)).toHaveLength(1);
    expect(h.executions()).toEqual([run.id]);
  });

  it("a webhook and a poll for the same story give one run", async () => {
    fake = await startFakeShortcut();
    const { c, h, poller } = await startPolling("ok.sh");
    const story = fake.addStory({ name: "Both ways" });
    const delivery = JSON.stringify({
      id: "evt-1",
      actions: [
        {
          id: story.id,
          entity_type: "story",
          action: "update",
          name: "Both ways",
          app_url: `https://app.example/acme/story/${story.id}`,
          changes: {},
        },
      ],
    });
    const [answer] = await Promise.all([
      fetch(`http://127.0.0.1:${c.webhookPort}/webhooks/tracker`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: delivery,
      }),
      poller.pollNow(),
    ]);
    expect(answer.status).toBe(200);
    const run = await finished(c.controller.store, story.id);
    await eventually("the completion comment", () => (fake.events.length >= 3 ? true : undefined));
    expect(await runsOf(c.controller.store, story.id)).toHaveLength(1);
    expect(h.executions()).toEqual([run.id]);
    expect(steps(fake)).toEqual(["Ready for Agent -> In Progress", "comment started", "comment finished"]);
  });

  it("while the API answers 500s the controller keeps running and backs off; then it catches up", async () => {
    fake = await startFakeShortcut();
    const { c, poller } = await startPolling("ok.sh");
    fake.inject({ status: 500 });
    const story = fake.addStory({});
    await poller.pollNow();
    await poller.pollNow();
    expect(await metric(c, "errand_source_polls_total", { source: "tracker_b", outcome: "error" })).toBe(2);
    expect(poller.health()).toEqual({
      ready: true,
      detail:
        "failing (2 in a row): tracker B answered 500 to GET /api/v3/search/stories (page 1): Internal Server Error",
    });
    expect(await runsOf(c.controller.store, story.id)).toEqual([]);
    fake.heal();
    await poller.pollNow();
    const run: TaskRun = await finished(c.controller.store, story.id);
    expect(run.state).toBe("Succeeded");
    expect(poller.health().detail).toMatch(/^polling every 3600 s, last poll /);
    await eventually("the completion comment", () => (fake.events.length >= 3 ? true : undefined));
  });

  it("write-back failures are counted and logged; the run is neither lost nor repeated", async () => {
    fake = await startFakeShortcut();
    const { c, h } = await startPolling("ok.sh");
    fake.inject({ status: 502, match: (method) => method !== "GET" });
    fake.inject({ status: 502, match: (method, path) => method === "GET" && /^\/api\/v3\/stories\/\d+$/.test(path) });
    const story = fake.addStory({});
    await (c.controller.sources.find((s) => s.name === "tracker_b") as PollingSource).pollNow();
    const run = await finished(c.controller.store, story.id);
    expect(run.state).toBe("Succeeded");
    const failedFinish = () =>
      metric(c, "errand_source_writeback_errors_total", { source: "tracker_b", step: "finished" });
    await eventually("the finished write-back to fail", async () => ((await failedFinish()) === 1 ? true : undefined));
    expect(await metric(c, "errand_source_writeback_errors_total", { source: "tracker_b", step: "picked_up" })).toBe(1);
    expect(
      c.logs.some((l) => l.includes("write-back to the ticket source failed") && l.includes("tracker B answered 502")),
    ).toBe(true);
    expect(fake.events).toEqual([]);
    expect(h.executions()).toEqual([run.id]);
  });
});
