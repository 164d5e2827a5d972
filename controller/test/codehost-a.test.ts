import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { postJson, send } from "./helpers/http.js";
import { startServer } from "./helpers/server.js";
import { hostASignature } from "./helpers/sign.js";

const SECRET = "It's a Secret to Everybody";
const require = createRequire(import.meta.url);
interface ExampleGroup {
  name: string;
  examples: Array<Record<string, unknown> & { action?: string }>;
}
const groups = require("@octokit/webhooks-examples/api.github.com/index.json") as ExampleGroup[];
const issues = groups.find((g) => g.name === "issues")?.examples ?? [];

function signed(event: string, body: string, extra: Record<string, string> = {}) {
  return {
    "x-github-event": event,
    "x-hub-signature-256": hostASignature(SECRET, body),
    "content-type": "application/json",
    ...extra,
  };
}

describe("code host A", () => {
  it("accepts the vendor's published signature test vector", async () => {
    const t = await startServer({ secrets: { github: SECRET } });
    const headers = {
      "x-hub-signature-256": "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
      "x-github-event": "issues",
    };
    // The vector's body is not JSON: passing authentication shows up as a 400 for the body, not a 401.
    const ok = await postJson(t.base, "/webhooks/github", "Hello, World!", headers);
    expect(ok.status).toBe(400);
    expect(ok.json.error.code).toBe("ERR_INVALID_BODY");
    const bad = await postJson(t.base, "/webhooks/github", "Hello, World?", headers);
    expect(bad.status).toBe(401);
  });

  it("replays every published issues example: opened and labeled become tickets, the rest are ignored", async () => {
    const t = await startServer({ secrets: { codehost_a: SECRET } });
    expect(issues.length).toBeGreaterThan(10);
    for (const example of issues) {
      const body = JSON.stringify(example);
      const res = await postJson(t.base, "/webhooks/codehost-a", body, signed("issues", body));
      expect(res.status).toBe(200);
      const issue = example.issue as {
        number: number;
        title: string;
        body: string | null;
        html_url: string;
        labels?: Array<{ name: string }>;
      };
      if (example.action === "opened" || example.action === "labeled") {
        expect(res.json).toEqual({ status: "accepted", tickets: [String(issue.number)] });
        const ticket = t.tickets.at(-1);
        expect(ticket).toMatchObject({
          id: String(issue.number),
          title: issue.title,
          description: issue.body ?? "",
          ticketType: "issue",
          repoUrl: (example.repository as { html_url: string }).html_url,
          externalUrl: issue.html_url,
          labels: (issue.labels ?? []).map((l) => l.name),
          source: "codehost_a",
        });
      } else {
        expect(res.json).toEqual({ status: "ignored", reason: `issues action "${example.action}" is not ingested` });
      }
    }
    const ingested = issues.filter((e) => e.action === "opened" || e.action === "labeled").length;
    expect(t.tickets).toHaveLength(ingested);
  });

  it("acknowledges every other published event type with 200 and no ticket", async () => {
    const t = await startServer({ secrets: { codehost_a: SECRET } });
    let count = 0;
    for (const group of groups) {
      if (group.name === "issues") continue;
      for (const example of group.examples.slice(0, 2)) {
        const body = JSON.stringify(example);
        const res = await postJson(
          t.base,
          "/webhooks/github",
          body,
          signed(group.name, body, { "x-github-delivery": `d-${count++}` }),
        );
        expect(res.status, group.name).toBe(200);
        expect(res.json.status).toBe("ignored");
      }
    }
    expect(count).toBeGreaterThan(50);
    expect(t.tickets).toHaveLength(0);
  });

  it("refuses missing, malformed and wrong signatures with 401 before parsing", async () => {
    const t = await startServer({ secrets: { codehost_a: SECRET } });
    const body = JSON.stringify(issues.find((e) => e.action === "opened"));
    const none = await postJson(t.base, "/webhooks/codehost-a", body, { "x-hosta-event": "issues" });
    expect(none.status).toBe(401);
    expect(none.json.error.message).toContain("X-Hub-Signature-256");
    const bare = await postJson(t.base, "/webhooks/codehost-a", body, {
      "x-hosta-event": "issues",
      "x-hub-signature-256": hostASignature(SECRET, body).slice(7),
    });
    expect(bare.status).toBe(401);
    const other = await postJson(t.base, "/webhooks/codehost-a", body, {
      "x-hosta-event": "issues",
      "x-hub-signature-256": hostASignature("another secret", body),
    });
    expect(other.status).toBe(401);
    expect(other.text).not.toContain(hostASignature(SECRET, body).slice(7));
    expect(other.text).not.toContain(SECRET);
    const garbage = await postJson(t.base, "/webhooks/codehost-a", "{not json", {
      "x-hosta-event": "issues",
      "x-hub-signature-256": "sha256=zz",
    });
    expect(garbage.status).toBe(401);
    expect(t.tickets).toHaveLength(0);
  });

  it("uses the neutral headers, answers ping, and needs an event header", async () => {
    const t = await startServer({ secrets: { codehost_a: SECRET } });
    const body = JSON.stringify(issues.find((e) => e.action === "labeled"));
    const neutral = await postJson(t.base, "/webhooks/codehost-a", body, {
      "x-hosta-event": "issues",
      "x-hub-signature-256": hostASignature(SECRET, body),
    });
    expect(neutral.json.status).toBe("accepted");
    const ping = await postJson(t.base, "/webhooks/codehost-a", "{}", {
      "x-hosta-event": "ping",
      "x-hub-signature-256": hostASignature(SECRET, "{}"),
    });
    expect(ping.json).toEqual({ status: "ignored", reason: 'event "ping" is not ingested' });
    const noEvent = await postJson(t.base, "/webhooks/codehost-a", body, {
      "x-hub-signature-256": hostASignature(SECRET, body),
    });
    expect(noEvent.status).toBe(400);
    const noIssue = JSON.stringify({ action: "opened" });
    const lacking = await postJson(t.base, "/webhooks/codehost-a", noIssue, signed("issues", noIssue));
    expect(lacking.status).toBe(400);
  });

  it("accepts the vendor's form-encoded variant", async () => {
    const t = await startServer({ secrets: { codehost_a: SECRET } });
    const payload = JSON.stringify(issues.find((e) => e.action === "opened"));
    const body = new URLSearchParams({ payload }).toString();
    const res = await send(t.base, "/webhooks/github", {
      body,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-github-event": "issues",
        "x-hub-signature-256": hostASignature(SECRET, body),
      },
    });
    expect(res.json.status).toBe("accepted");
    expect(t.tickets[0]?.title).toBeTruthy();
  });

  it("drops a redelivery with the same X-GitHub-Delivery or X-HostA-Delivery", async () => {
    const t = await startServer({ secrets: { codehost_a: SECRET } });
    const body = JSON.stringify(issues.find((e) => e.action === "opened"));
    const first = await postJson(
      t.base,
      "/webhooks/github",
      body,
      signed("issues", body, { "x-github-delivery": "abc-1" }),
    );
    const again = await postJson(
      t.base,
      "/webhooks/github",
      body,
      signed("issues", body, { "x-github-delivery": "abc-1" }),
    );
    const neutral = await postJson(
      t.base,
      "/webhooks/codehost-a",
      body,
      signed("issues", body, { "x-hosta-delivery": "abc-1" }),
    );
    const fresh = await postJson(
      t.base,
      "/webhooks/github",
      body,
      signed("issues", body, { "x-github-delivery": "abc-2" }),
    );
    expect([first.json.status, again.json.status, neutral.json.status, fresh.json.status]).toEqual([
      "accepted",
      "duplicate",
      "duplicate",
      "accepted",
    ]);
    expect(again.json).toEqual({ status: "duplicate" });
    expect(t.deliveries.map((d) => d.deliveryId)).toEqual(["abc-1", "abc-2"]);
  });
});
