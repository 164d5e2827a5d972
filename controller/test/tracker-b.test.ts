import { describe, expect, it } from "vitest";
import { postJson } from "./helpers/http.js";
import { startServer } from "./helpers/server.js";
import { hmacHex } from "./helpers/sign.js";

const SECRET = "shortcut-signing-secret";
const storyUpdate = (id: number, stateTo?: number) => ({
  id: 900 + id,
  entity_type: "story",
  action: "update",
  name: `Story ${id}`,
  app_url: `https://trackerb.example/story/${id}`,
  changes: {
    description: { old: "before", new: `after ${id}` },
    ...(stateTo === undefined ? {} : { workflow_state_id: { old: 500, new: stateTo } }),
  },
});
const event = (...actions: unknown[]) => ({ id: "evt", changed_at: "2024-01-01T00:00:00Z", actions });

describe("tracker B", () => {
  it("accepts unsigned requests while it has no secret, and maps story updates", async () => {
    const t = await startServer({});
    const res = await postJson(
      t.base,
      "/webhooks/tracker",
      event(
        storyUpdate(1),
        { id: 2, entity_type: "story", action: "create", name: "x" },
        { id: 3, entity_type: "label", action: "update" },
      ),
    );
    expect(res.json).toEqual({ status: "accepted", tickets: ["901"] });
    expect(t.tickets[0]).toMatchObject({
      id: "901",
      title: "Story 1",
      description: "after 1",
      ticketType: "issue",
      externalUrl: "https://trackerb.example/story/1",
      source: "tracker_b",
    });
    const nothing = await postJson(
      t.base,
      "/webhooks/shortcut",
      event({ id: 3, entity_type: "label", action: "update" }),
    );
    expect(nothing.json).toEqual({ status: "ignored", reason: "no story update in actions" });
    const broken = await postJson(t.base, "/webhooks/tracker", { actions: "nope" });
    expect(broken.status).toBe(400);
  });

  it("turns several story updates of one delivery into several tickets", async () => {
    const t = await startServer({});
    const res = await postJson(t.base, "/webhooks/tracker", event(storyUpdate(1), storyUpdate(2)));
    expect(res.json.tickets).toEqual(["901", "902"]);
    expect(t.deliveries).toHaveLength(1);
  });

  it("with a secret, accepts sha256= prefixed and bare hex in either header, and refuses the rest", async () => {
    const t = await startServer({ secrets: { tracker_b: SECRET } });
    const body = JSON.stringify(event(storyUpdate(1)));
    const sig = hmacHex(SECRET, body);
    const results = await Promise.all([
      postJson(t.base, "/webhooks/tracker", body, { "x-tracker-signature": `sha256=${sig}` }),
      postJson(t.base, "/webhooks/tracker", body, { "x-tracker-signature": sig }),
      postJson(t.base, "/webhooks/shortcut", body, { "payload-signature": sig }),
      postJson(t.base, "/webhooks/shortcut", body, { "payload-signature": sig.toUpperCase() }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const refused = await Promise.all([
      postJson(t.base, "/webhooks/tracker", body),
      postJson(t.base, "/webhooks/tracker", body, { "x-tracker-signature": hmacHex("other", body) }),
      postJson(t.base, "/webhooks/tracker", body, { "x-tracker-signature": `sha1=${sig}` }),
      postJson(t.base, "/webhooks/tracker", `${body} `, { "x-tracker-signature": sig }),
    ]);
    expect(refused.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    expect(t.tickets).toHaveLength(4);
  });

  it("accepts the deprecated webhook.shortcut.secret key", async () => {
    const t = await startServer({ shortcut: { secret: SECRET } });
    const body = JSON.stringify(event(storyUpdate(1)));
    expect((await postJson(t.base, "/webhooks/tracker", body)).status).toBe(401);
    expect(
      (await postJson(t.base, "/webhooks/tracker", body, { "payload-signature": hmacHex(SECRET, body) })).status,
    ).toBe(200);
  });

  it("forwards only updates into webhook.shortcut_target_state_id when it is set", async () => {
    const t = await startServer({ shortcut_target_state_id: 500100 });
    const res = await postJson(
      t.base,
      "/webhooks/tracker",
      event(storyUpdate(1, 500100), storyUpdate(2, 500200), storyUpdate(3)),
    );
    expect(res.json).toEqual({ status: "accepted", tickets: ["901"] });
    const none = await postJson(t.base, "/webhooks/tracker", event(storyUpdate(2, 500200)));
    expect(none.json).toEqual({ status: "ignored", reason: "no story update moved to workflow state 500100" });
  });
});
