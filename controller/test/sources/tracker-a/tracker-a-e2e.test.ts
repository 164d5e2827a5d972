import { afterEach, describe, expect, it } from "vitest";
import type { TaskRun } from "../../../src/runs/task-run.js";
import { isTerminal } from "../../../src/runs/task-run.js";
import type { PollingSource } from "../../../src/sources/polling/polling-source.js";
import type { Store } from "../../../src/store/store.js";
import { createHarness, eventually, type InProcess, startInProcess } from "../../controller/harness.js";
import { type FakeLinear, startFakeLinear } from "./fake-linear.js";

const open: Array<InProcess | FakeLinear> = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await ("controller" in thing ? thing.stop() : thing.close());
});

/** A controller polling the fake's ENG team (Todo, label agent), with the engine fixture `engine`. */
async function controllerFor(engine: string, setup?: (fake: FakeLinear) => void) {
  const fake = await startFakeLinear();
  open.push(fake);
  setup?.(fake);
  const h = createHarness({
    engine,
    extra: `ticketing:
  backend: tracker_a
  poll_interval: 1h
  config:
    token_secret: tracker-a-token
    team_id: ${fake.ws.team("ENG").id}
    state_filter: Todo
    labels: [agent]
    exclude_labels: [wontfix]
    api_base_url: ${fake.url}
`,
  });
  const c = await startInProcess(h, undefined, { ERRAND_SECRET_TRACKER_A_TOKEN: fake.token });
  open.push(c);
  const source = c.controller.sources.find((s) => s.name === "tracker_a") as PollingSource | undefined;
  if (source === undefined) throw new Error("no tracker_a source");
  return { fake, h, c, source, store: c.controller.store };
}

const runsOf = (store: Store, id: string): Promise<TaskRun[]> =>
  store.listRuns({ ticket: { source: "tracker_a", id }, limit: 10 });
const ended = (store: Store, id: string) =>
  eventually(`a final run of ${id}`, async () => (await runsOf(store, id)).find((r) => isTerminal(r.state)));
const brief = (fake: FakeLinear) =>
  fake.ws.changes.map((c) =>
    c.op === "commentCreate" ? `${c.issue} comment` : `${c.issue} +[${c.added}] -[${c.removed}]`,
  );

describe("tracker_a end to end through the controller", () => {
  it("a labelled issue in Todo → one run → in-progress label, PR comment, label off, in that order; re-polls start nothing more", async () => {
    const { fake, h, source, store } = await controllerFor("ok.sh", (f) =>
      f.ws.addIssue({ title: "Fix the login form", labels: ["agent"] }),
    );
    const issue = fake.ws.issue("ENG-1");
    const run = await ended(store, issue.id);
    expect(run.state).toBe("Succeeded");
    await eventually("the write-back", () => (fake.ws.changes.length === 3 ? true : undefined));
    expect(brief(fake)).toEqual(["ENG-1 +[agent-in-progress] -[]", "ENG-1 comment", "ENG-1 +[] -[agent-in-progress]"]);
    expect(fake.ws.commentsOf("ENG-1")[0]?.body).toContain("https://github.com/acme/shop/pull/7");
    await source.pollNow();
    await source.pollNow();
    expect(await runsOf(store, issue.id)).toHaveLength(1);
    expect(h.executions()).toEqual([run.id]);
    expect((await store.getTicket({ source: "tracker_a", id: issue.id }))?.title).toBe("Fix the login form");
  });

  it("a failed run leaves the failed label, and the issue is not picked up again", async () => {
    const { fake, h, source, store } = await controllerFor("crash.sh", (f) => f.ws.addIssue({ labels: ["agent"] }));
    const issue = fake.ws.issue("ENG-1");
    expect((await ended(store, issue.id)).state).toBe("Failed");
    await eventually("the failed label", () => (fake.ws.labelsOf("ENG-1").includes("agent-failed") ? true : undefined));
    expect(brief(fake)).toEqual(["ENG-1 +[agent-in-progress] -[]", "ENG-1 +[agent-failed] -[agent-in-progress]"]);
    expect(fake.ws.commentsOf("ENG-1")).toEqual([]);
    await source.pollNow();
    expect(await runsOf(store, issue.id)).toHaveLength(1);
    expect(h.executions()).toHaveLength(1);
  });

  it("issues that do not match the rules never run; one that starts to match later is picked up by the next poll", async () => {
    const { fake, h, source, store } = await controllerFor("ok.sh", (f) => {
      f.ws.addIssue({ labels: ["agent"], state: "Backlog" });
      f.ws.addIssue({ labels: ["agent", "wontfix"] });
      f.ws.addIssue({ labels: ["bug"] });
    });
    await source.pollNow();
    expect(h.executions()).toEqual([]);
    const issue = fake.ws.issue("ENG-1");
    issue.stateId = fake.ws.state("ENG", "Todo").id;
    await source.pollNow();
    expect((await ended(store, issue.id)).state).toBe("Succeeded");
    expect(h.executions()).toHaveLength(1);
  });

  it("an API that answers 500s from the start: the controller starts and stays up, then catches up once the API answers", async () => {
    const { fake, c, source, store } = await controllerFor("ok.sh", (f) => {
      f.ws.addIssue({ labels: ["agent"] });
      f.fail(4, "500");
    });
    await source.pollNow();
    await source.pollNow();
    expect(source.health()).toMatchObject({ ready: true });
    expect(source.health().detail).toMatch(/^failing \(\d+ in a row\): tracker_a could not/);
    expect(c.logs.some((line) => line.includes("tracker_a cannot be reached at start"))).toBe(true);
    fake.fail(1, "reset");
    await eventually("the source to recover", async () => {
      await source.pollNow();
      return source.health().detail.startsWith("polling every 3600 s") ? true : undefined;
    });
    expect(fake.requests.filter((r) => r.operation.startsWith("(failed")).map((r) => r.operation)).toEqual([
      ...Array(4).fill("(failed: 500)"),
      "(failed: reset)",
    ]);
    expect((await ended(store, fake.ws.issue("ENG-1").id)).state).toBe("Succeeded");
  });
});
