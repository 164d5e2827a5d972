import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTrackerAAdapter } from "../../../src/vendors/tracker-a/tracker-a-adapter.js";
import { testContext, trackerAConfig } from "./adapter-kit.js";
import { type FakeLinear, startFakeLinear } from "./fake-linear.js";

let fake: FakeLinear;
beforeEach(async () => {
  fake = await startFakeLinear();
});
afterEach(async () => {
  await fake.close();
});

async function pollWith(config: Record<string, unknown> = {}) {
  const adapter = createTrackerAAdapter(trackerAConfig(fake, config), fake.token);
  const ctx = testContext();
  await adapter.prepare(ctx);
  return adapter.poll(ctx);
}

describe("tracker_a poll: spec 3's pick-up rules", () => {
  it("picks up an issue with the trigger label in the state_filter state, as a ticket with the webhook's identity fields", async () => {
    const issue = fake.ws.addIssue({
      title: "Login form rejects valid emails",
      description: "Steps:\n1. type **a+b@x.io**",
      labels: ["agent", "bug"],
    });
    const [candidate, ...rest] = await pollWith();
    expect(rest).toEqual([]);
    expect(candidate?.skip).toBeUndefined();
    expect(candidate?.ticket).toEqual({
      id: issue.id,
      title: "Login form rejects valid emails",
      description: "Steps:\n1. type **a+b@x.io**",
      ticketType: "issue",
      repoUrl: "",
      externalUrl: "https://linear.example/acme/issue/ENG-1",
      labels: ["agent", "bug"],
      source: "tracker_a",
    });
  });

  it("gives a reason in words for every other issue the poll sees: wrong state, excluded label, failed label", async () => {
    fake.ws.addIssue({ labels: ["agent"], state: "In Progress" });
    fake.ws.addIssue({ labels: ["agent", "wontfix"] });
    fake.ws.addIssue({ labels: ["agent", "agent-failed"] });
    fake.ws.addIssue({ labels: ["agent", "wontfix"], state: "Backlog" });
    const reasons = (await pollWith()).map((c) => c.skip);
    expect(reasons).toEqual([
      'ENG-1 is in state "In Progress", not "Todo" (state_filter)',
      'ENG-2 carries the excluded label "wontfix" (exclude_labels)',
      'ENG-3 carries the failed label "agent-failed": a run failed, and failed issues are not retried automatically (errand runs retry starts one)',
      'ENG-4 carries the excluded label "wontfix" (exclude_labels); is in state "Backlog", not "Todo" (state_filter)',
    ]);
  });

  it("wants every trigger label when several are configured, and says which are missing", async () => {
    fake.ws.addIssue({ labels: ["agent"] });
    fake.ws.addIssue({ labels: ["agent", "bug"] });
    const candidates = await pollWith({ labels: ["agent", "bug"] });
    expect(candidates.map((c) => c.skip)).toEqual(['ENG-1 lacks the trigger label "bug" (labels)', undefined]);
  });

  it("asks the API for the team's open issues with a trigger label only: closed issues, other teams and unlabelled issues never come back", async () => {
    fake.ws.addIssue({ labels: ["agent"], state: "Done" });
    fake.ws.addIssue({ labels: ["agent"], state: "Canceled" });
    fake.ws.addIssue({ labels: ["bug"] });
    fake.ws.addIssue({ team: "OPS", labels: ["agent-in-progress"] });
    const wanted = fake.ws.addIssue({ labels: ["agent"] });
    const candidates = await pollWith();
    expect(candidates.map((c) => c.ticket.id)).toEqual([wanted.id]);
    const poll = fake.requests.find((r) => r.operation === "issues");
    expect(poll?.variables.filter).toEqual({
      team: { id: { eq: fake.ws.team("ENG").id } },
      labels: { some: { id: { in: [fake.ws.label("agent").id] } } },
      state: { or: [{ id: { eq: fake.ws.state("ENG", "Todo").id } }, { type: { nin: ["completed", "canceled"] } }] },
    });
  });

  it("without trigger labels, polls the state_filter state alone", async () => {
    fake.ws.addIssue({ state: "Todo" });
    fake.ws.addIssue({ state: "Backlog" });
    const candidates = await pollWith({ labels: [] });
    expect(candidates.map((c) => [c.ticket.externalUrl, c.skip])).toEqual([
      ["https://linear.example/acme/issue/ENG-1", undefined],
    ]);
  });

  it("without state_filter, picks up labelled issues in any open state", async () => {
    fake.ws.addIssue({ labels: ["agent"], state: "Triage" });
    fake.ws.addIssue({ labels: ["agent"], state: "In Review" });
    fake.ws.addIssue({ labels: ["agent"], state: "Done" });
    const candidates = await pollWith({ state_filter: undefined });
    expect(candidates.map((c) => [c.ticket.externalUrl.split("/").at(-1), c.skip])).toEqual([
      ["ENG-1", undefined],
      ["ENG-2", undefined],
    ]);
  });

  it("follows every page with first/after cursors (120 issues, 3 pages of 50)", async () => {
    for (let k = 0; k < 120; k++) fake.ws.addIssue({ labels: ["agent"] });
    const candidates = await pollWith();
    expect(candidates).toHaveLength(120);
    expect(new Set(candidates.map((c) => c.ticket.id)).size).toBe(120);
    const pages = fake.requests.filter((r) => r.operation === "issues");
    expect(pages.map((p) => [p.variables.first, p.variables.after])).toEqual([
      [50, undefined],
      [50, fake.ws.issues[49]?.id],
      [50, fake.ws.issues[99]?.id],
    ]);
  });

  it("names labels created after start once it re-reads them", async () => {
    const adapter = createTrackerAAdapter(trackerAConfig(fake), fake.token, { labelRefreshMs: 0 });
    const ctx = testContext();
    await adapter.prepare(ctx);
    fake.ws.addLabel("frontend", "ENG");
    fake.ws.addIssue({ labels: ["agent", "frontend"] });
    const [candidate] = await adapter.poll(ctx);
    expect(candidate?.ticket.labels).toEqual(["agent", "frontend"]);
  });

  it("writes nothing: a poll only reads", async () => {
    fake.ws.addIssue({ labels: ["agent"] });
    await pollWith();
    expect(fake.ws.changes).toEqual([]);
    expect(fake.requests.map((r) => r.operation)).toEqual(["teams", "team_states", "issueLabels", "issues"]);
  });
});
