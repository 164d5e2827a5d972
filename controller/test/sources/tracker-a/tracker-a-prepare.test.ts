import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/config/config-error.js";
import { ControllerErrorCode } from "../../../src/errors.js";
import { createTrackerAAdapter } from "../../../src/vendors/tracker-a/tracker-a-adapter.js";
import { TrackerAError } from "../../../src/vendors/tracker-a/tracker-a-error.js";
import { testContext, trackerAConfig } from "./adapter-kit.js";
import { type FakeLinear, startFakeLinear } from "./fake-linear.js";

let fake: FakeLinear;
beforeEach(async () => {
  fake = await startFakeLinear();
});
afterEach(async () => {
  await fake.close();
});

async function prepareError(config: Record<string, unknown>, token = fake.token): Promise<unknown> {
  const adapter = createTrackerAAdapter(trackerAConfig(fake, config), token);
  return adapter.prepare(testContext()).then(
    () => undefined,
    (error: unknown) => error,
  );
}

function problems(error: unknown): string[] {
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).code).toBe(ControllerErrorCode.InvalidConfig);
  return (error as ConfigError).problems.map((p) => `${p.key}: ${p.message}; ${p.fix}`);
}

describe("tracker_a prepare: the configuration checked against the workspace at start", () => {
  it("accepts the names that exist, exactly as written", async () => {
    expect(await prepareError({})).toBeUndefined();
  });

  it("refuses a state_filter that is not the exact, case-sensitive name of a state, listing the team's states in order", async () => {
    expect(problems(await prepareError({ state_filter: "todo" }))).toEqual([
      'ticketing.config.state_filter: "todo" is not a state of team ENG; did you mean "Todo" (names are case-sensitive)? Or use one of (exact, case-sensitive): "Triage", "Backlog", "Todo", "In Progress", "In Review", "Done", "Canceled"',
    ]);
  });

  it("refuses every label name that does not exist at once, naming its key and listing the labels that do", async () => {
    const found = problems(
      await prepareError({
        labels: ["Agent"],
        exclude_labels: ["wont-fix"],
        in_progress_label: "agent-wip",
        failed_label: "agent-failed",
      }),
    );
    expect(found.map((p) => p.split(":")[0])).toEqual([
      "ticketing.config.labels",
      "ticketing.config.exclude_labels",
      "ticketing.config.in_progress_label",
    ]);
    expect(found[0]).toContain(
      'label "Agent" does not exist in team ENG or the workspace; did you mean "agent" (names are case-sensitive)?',
    );
    expect(found[2]).not.toContain("did you mean");
    expect(found[0]).toContain(
      '"agent", "agent-failed", "agent-in-progress", "bug", "Feature", "needs-design", "wontfix"',
    );
  });

  it("does not offer another team's labels or a group label, which cannot go on the team's issues", async () => {
    const found = problems(await prepareError({ labels: ["ops-only"], exclude_labels: ["Type"] }));
    expect(found.map((p) => p.split(":")[0])).toEqual(["ticketing.config.labels", "ticketing.config.exclude_labels"]);
    const offered = found.map((p) => p.slice(p.indexOf("use one of")));
    for (const list of offered) expect(list).not.toMatch(/"ops-only"|"Type"/);
  });

  it("refuses a team_id the token cannot see, listing the teams it can (id, key, name)", async () => {
    const found = problems(await prepareError({ team_id: "9cfb482a-81e3-4154-b5b9-2c805e70a02d" }));
    expect(found).toEqual([
      `ticketing.config.team_id: 9cfb482a-81e3-4154-b5b9-2c805e70a02d is not a team this token can see; use one of: ${fake.ws.team("ENG").id} (ENG, "Engineering"), ${fake.ws.team("OPS").id} (OPS, "Operations")`,
    ]);
  });

  it("refuses settings that would pick up every open issue, or nothing ever", async () => {
    expect(problems(await prepareError({ labels: [], state_filter: undefined }))[0]).toMatch(
      /^ticketing\.config\.labels: is empty and state_filter is not set: every open issue/,
    );
    expect(problems(await prepareError({ labels: ["agent"], exclude_labels: ["agent"] }))[0]).toMatch(
      /"agent" is a trigger label and also in exclude_labels/,
    );
    expect(problems(await prepareError({ in_progress_label: "agent-failed" }))[0]).toMatch(
      /^ticketing\.config\.failed_label: is the same label as in_progress_label/,
    );
  });

  it("a token the API refuses is a start-up error saying which secret to fix (the fake answered 401)", async () => {
    const error = await prepareError({}, "lin_api_wrong");
    expect(error).toBeInstanceOf(TrackerAError);
    expect((error as TrackerAError).failure).toBe("auth");
    expect((error as TrackerAError).code).toBe(ControllerErrorCode.TicketSource);
    expect((error as TrackerAError).hint).toMatch(/ticketing\.config\.token_secret/);
    expect(fake.requests.map((r) => r.status)).toEqual([401]);
  });

  it("sends an OAuth token as a Bearer token", async () => {
    const oauth = await startFakeLinear({ token: "lin_oauth_0123456789abcdef", oauth: true });
    try {
      const adapter = createTrackerAAdapter(trackerAConfig(oauth), oauth.token);
      await adapter.prepare(testContext());
      expect(oauth.requests.every((r) => r.status === 200)).toBe(true);
    } finally {
      await oauth.close();
    }
  });

  it("refuses a missing token and a plain-http API URL off this machine before sending anything", () => {
    expect(() => createTrackerAAdapter(trackerAConfig(fake), undefined)).toThrow(ConfigError);
    expect(() => createTrackerAAdapter(trackerAConfig(fake), "  ")).toThrow(
      /token_secret: names a secret with no value/,
    );
    expect(() =>
      createTrackerAAdapter(trackerAConfig(fake, { api_base_url: "http://tracker.example.com/graphql" }), fake.token),
    ).toThrow(
      /ticketing\.config\.api_base_url: "http:\/\/tracker\.example\.com\/graphql" cannot be used: LinearClient apiUrl must use HTTPS/,
    );
    expect(fake.requests).toEqual([]);
  });

  it("takes api_base_url as the bare origin too, adding the /graphql path", async () => {
    const adapter = createTrackerAAdapter(
      trackerAConfig(fake, { api_base_url: fake.url.replace("/graphql", "") }),
      fake.token,
    );
    await adapter.prepare(testContext());
    expect(fake.requests.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it("a wrong api_base_url path is named as such, not as a refused token", async () => {
    const adapter = createTrackerAAdapter(
      trackerAConfig(fake, { api_base_url: fake.url.replace("/graphql", "/v1/graphql") }),
      fake.token,
    );
    const error = await adapter.prepare(testContext()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrackerAError);
    expect((error as TrackerAError).failure).toBe("rejected");
    expect((error as TrackerAError).message).toMatch(/answered HTTP 404/);
    expect((error as TrackerAError).hint).toMatch(/api_base_url/);
  });
});
