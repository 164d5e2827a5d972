import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/config-error.js";
import { createTrackerBAdapter } from "../../../src/vendors/tracker-b/tracker-b-adapter.js";
import { type FakeShortcut, startFakeShortcut } from "./fake-shortcut.js";
import { pollContext, trackerBConfig } from "./helpers.js";

let fake: FakeShortcut;
afterEach(async () => {
  await fake?.close();
});

async function problemsOf(config: Record<string, unknown>, token?: string) {
  const adapter = createTrackerBAdapter(trackerBConfig(fake, config), token ?? fake.token);
  const error = await adapter.prepare(pollContext()).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  const config_ = error as ConfigError;
  expect(config_.code).toBe("ERR_INVALID_CONFIG");
  return config_.problems;
}

describe("tracker B configuration checked against the workspace at start", () => {
  it("refuses a state name that differs only in case, listing the states that exist", async () => {
    fake = await startFakeShortcut();
    const [problem, ...rest] = await problemsOf({ workflow_state_name: "ready for agent" });
    expect(rest).toEqual([]);
    expect(problem?.key).toBe("ticketing.config.workflow_state_name");
    expect(problem?.message).toBe('no workflow has a state named "ready for agent"; did you mean "Ready for Agent"?');
    expect(problem?.fix).toBe(
      'write a state that exists (exact, case-sensitive); the workflows\' states are "Engineering": Unscheduled, Ready for Agent, In Progress, In Review, Done; "Design": Backlog, Ready for Agent, Doing, Shipped',
    );
  });

  it("refuses an in-progress or completed state the trigger state's workflows lack", async () => {
    fake = await startFakeShortcut();
    const problems = await problemsOf({ in_progress_state_name: "In progress", completed_state_name: "Shipped" });
    expect(problems.map((p) => [p.key, p.message])).toEqual([
      [
        "ticketing.config.in_progress_state_name",
        'no workflow with the state "Ready for Agent" has a state named "In progress"; did you mean "In Progress"?',
      ],
    ]);
    const completed = await problemsOf({ completed_state_name: "Shipped" });
    expect(completed.map((p) => [p.key, p.message])).toEqual([
      ["ticketing.config.completed_state_name", 'no workflow the trigger states belong to has a state named "Shipped"'],
    ]);
    expect(completed[0]?.fix).toContain('"Engineering": Unscheduled, Ready for Agent, In Progress, In Review, Done');
    expect(completed[0]?.fix).not.toContain("Design");
  });

  it("names each workflows[] entry by its index", async () => {
    fake = await startFakeShortcut();
    const problems = await problemsOf({
      workflows: [
        { trigger_state: "Ready for Agent", in_progress_state: "In Progress" },
        { trigger_state: "Todo", in_progress_state: "Doing" },
      ],
    });
    expect(problems.map((p) => p.key)).toEqual(["ticketing.config.workflows[1].trigger_state"]);
  });

  it("refuses an unknown or disabled owner, listing the active members' mention names", async () => {
    fake = await startFakeShortcut();
    const [unknown] = await problemsOf({ owner_mention_name: "errand-bt" });
    expect(unknown).toEqual({
      key: "ticketing.config.owner_mention_name",
      message: 'no member has the mention name "errand-bt"; did you mean "errand-bot"?',
      fix: "write the mention name (exact, case-sensitive) of an active member: alice, errand-bot",
    });
    const [disabled] = await problemsOf({ owner_mention_name: "bob" });
    expect(disabled?.message).toBe('"bob" is a disabled member');
    const adapter = createTrackerBAdapter(trackerBConfig(fake, { owner_mention_name: "@errand-bot" }), fake.token);
    await expect(adapter.prepare(pollContext())).resolves.toBeUndefined();
  });

  it("refuses labels the workspace does not have, and reports every problem at once", async () => {
    fake = await startFakeShortcut();
    const problems = await problemsOf({
      labels: ["Agent"],
      exclude_labels: ["do-not-automate", "wip"],
      owner_mention_name: "nobody",
      workflow_state_name: "Todo",
    });
    expect(problems.map((p) => p.key)).toEqual([
      "ticketing.config.workflow_state_name",
      "ticketing.config.owner_mention_name",
      "ticketing.config.labels[0]",
      "ticketing.config.exclude_labels[1]",
    ]);
    expect(problems[2]?.message).toBe('no label is named "Agent"; did you mean "agent"?');
    expect(problems[2]?.fix).toContain("agent, do-not-automate, frontend");
    expect(fake.requests.some((r) => r.path === "/api/v3/labels" && r.query.get("slim") === "true")).toBe(true);
  });

  it("fetches no labels when none is configured", async () => {
    fake = await startFakeShortcut();
    await createTrackerBAdapter(trackerBConfig(fake), fake.token).prepare(pollContext());
    expect(fake.requests.map((r) => r.path).sort()).toEqual(["/api/v3/members", "/api/v3/workflows"]);
  });

  it("turns a refused token into a configuration error naming token_secret", async () => {
    fake = await startFakeShortcut();
    const [problem] = await problemsOf({}, "not-the-token");
    expect(problem?.key).toBe("ticketing.config.token_secret");
    expect(problem?.message).toContain("tracker B answered 401 to GET /api/v3/");
    expect(problem?.message).not.toContain("not-the-token");
    expect(problem?.fix).toContain("API Tokens");
    expect(() => createTrackerBAdapter(trackerBConfig(fake), undefined)).toThrow(ConfigError);
  });

  it("the fake refuses requests without the Shortcut-Token header or with a wrong one", async () => {
    fake = await startFakeShortcut();
    const none = await fetch(`${fake.url}/api/v3/workflows`);
    const wrong = await fetch(`${fake.url}/api/v3/workflows`, { headers: { "shortcut-token": "nope" } });
    const right = await fetch(`${fake.url}/api/v3/workflows`, { headers: { "shortcut-token": fake.token } });
    expect([none.status, wrong.status, right.status]).toEqual([401, 401, 200]);
    expect(await none.json()).toEqual({ message: "Unauthorized", tag: "unauthorized" });
  });
});
