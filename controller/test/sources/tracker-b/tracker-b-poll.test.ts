import { afterEach, describe, expect, it } from "vitest";
import { createTrackerBAdapter } from "../../../src/vendors/tracker-b/tracker-b-adapter.js";
import { createTrackerBSource } from "../../../src/vendors/tracker-b/tracker-b-webhook.js";
import { type FakeShortcut, startFakeShortcut } from "./fake-shortcut.js";
import { ALICE_ID } from "./fake-shortcut-data.js";
import { pollContext, preparedAdapter, trackerBConfig } from "./helpers.js";

let fake: FakeShortcut;
afterEach(async () => {
  await fake?.close();
});

describe("tracker B polling: the pick-up rules of spec 3", () => {
  it("picks up a story assigned to the owner mention name in the trigger state, as the webhook intake would name it", async () => {
    fake = await startFakeShortcut();
    const story = fake.addStory({ name: "Fix the cart", description: "The total is **wrong**.", labels: ["frontend"] });
    const adapter = await preparedAdapter(fake);
    const [candidate, ...rest] = await adapter.poll(pollContext());
    expect(rest).toEqual([]);
    expect(candidate?.skip).toBeUndefined();
    expect(candidate?.ticket).toEqual({
      id: String(story.id),
      title: "Fix the cart",
      description: "The total is **wrong**.",
      ticketType: "issue",
      repoUrl: "",
      externalUrl: `https://app.example/acme/story/${story.id}`,
      labels: ["frontend"],
      source: "tracker_b",
      rawEvent: undefined,
    });
    const delivery = {
      actions: [
        {
          id: story.id,
          entity_type: "story",
          action: "update",
          name: "Fix the cart",
          app_url: candidate?.ticket.externalUrl,
          changes: {},
        },
      ],
    };
    const hook = createTrackerBSource({}).map(Buffer.from(JSON.stringify(delivery)), "application/json", {});
    expect(hook.tickets.map((t) => [t.source, t.id])).toEqual([["tracker_b", String(story.id)]]);
  });

  it("says in words why every other story in the trigger state is skipped", async () => {
    fake = await startFakeShortcut();
    const ids = {
      ok: fake.addStory({ labels: ["agent"] }).id,
      otherOwner: fake.addStory({ owner_ids: [ALICE_ID], labels: ["agent"] }).id,
      noOwner: fake.addStory({ owner_ids: [], labels: ["agent"] }).id,
      excluded: fake.addStory({ labels: ["agent", "do-not-automate"] }).id,
      untagged: fake.addStory({ labels: [] }).id,
      otherWorkflow: fake.addStory({ workflow: "Design", labels: ["agent"] }).id,
    };
    fake.addStory({ archived: true, labels: ["agent"] });
    fake.addStory({ state: "Done", labels: ["agent"] });
    const adapter = await preparedAdapter(fake, { labels: ["agent"], exclude_labels: ["do-not-automate"] });
    const skips = Object.fromEntries((await adapter.poll(pollContext())).map((c) => [c.ticket.id, c.skip]));
    expect(skips).toEqual({
      [ids.ok]: undefined,
      [ids.otherOwner]: "not assigned to @errand-bot (owners: @alice)",
      [ids.noOwner]: "not assigned to @errand-bot (it has no owner)",
      [ids.excluded]: "carries the excluded label do-not-automate",
      [ids.untagged]: "lacks the trigger label agent",
      [ids.otherWorkflow]:
        "wrong state: in Design / Ready for Agent, not a trigger state (Ready for Agent) of a watched workflow",
    });
  });

  it("matches state names exactly although the search ignores case", async () => {
    fake = await startFakeShortcut({
      workflows: [
        {
          id: 1,
          name: "Eng",
          states: [
            { id: 11, name: "Ready for Agent", type: "unstarted" },
            { id: 12, name: "In Progress", type: "started" },
          ],
        },
        {
          id: 2,
          name: "Ops",
          states: [
            { id: 21, name: "READY FOR AGENT", type: "unstarted" },
            { id: 22, name: "In Progress", type: "started" },
          ],
        },
      ],
    });
    const ok = fake.addStory({ workflow_state_id: 11 });
    const shouting = fake.addStory({ workflow_state_id: 21 });
    const found = await (await preparedAdapter(fake)).poll(pollContext());
    expect(found.map((c) => [c.ticket.id, c.skip])).toEqual([
      [String(ok.id), undefined],
      [
        String(shouting.id),
        "wrong state: in Ops / READY FOR AGENT, not a trigger state (Ready for Agent) of a watched workflow",
      ],
    ]);
  });

  it("follows next tokens through every page, with descriptions", async () => {
    fake = await startFakeShortcut();
    for (let i = 0; i < 30; i++) fake.addStory({});
    const adapter = await preparedAdapter(fake, {}, { pageSize: 7 });
    const found = await adapter.poll(pollContext());
    expect(found).toHaveLength(30);
    expect(new Set(found.map((c) => c.ticket.id)).size).toBe(30);
    expect(found.every((c) => c.ticket.description.startsWith("Do thing"))).toBe(true);
    const searches = fake.requests.filter((r) => r.path === "/api/v3/search/stories");
    expect(searches.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(searches[0]?.query.get("next")).toBeNull();
    expect(
      searches
        .slice(1)
        .every((r) => r.query.get("next") !== null && r.query.get("query") === 'state:"Ready for Agent" !is:archived'),
    ).toBe(true);
    expect(searches.every((r) => r.query.get("page_size") === "7" && r.query.get("detail") === "full")).toBe(true);
  });

  it("with workflows[], watches each trigger state of its own workflow", async () => {
    fake = await startFakeShortcut();
    const eng = fake.addStory({});
    const design = fake.addStory({ workflow: "Design" });
    fake.addStory({ state: "Backlog", workflow: "Design" });
    const adapter = await preparedAdapter(fake, {
      workflows: [
        { trigger_state: "Ready for Agent", in_progress_state: "In Progress" },
        { trigger_state: "Ready for Agent", in_progress_state: "Doing" },
      ],
    });
    const found = await adapter.poll(pollContext());
    expect(found.map((c) => [c.ticket.id, c.skip])).toEqual([
      [String(eng.id), undefined],
      [String(design.id), undefined],
    ]);
    expect(fake.requests.filter((r) => r.path === "/api/v3/search/stories")).toHaveLength(1);
  });

  it("warns at start about a workflow that has the trigger state but not the in-progress one", async () => {
    fake = await startFakeShortcut();
    const ctx = pollContext();
    await createTrackerBAdapter(trackerBConfig(fake), fake.token).prepare(ctx);
    expect(ctx.lines.join("\n")).toContain(
      'workflow \\"Design\\" has the state \\"Ready for Agent\\" but no \\"In Progress\\": its stories are not picked up',
    );
  });
});
