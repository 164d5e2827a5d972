import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { postJson } from "./helpers/http.js";
import { startServer } from "./helpers/server.js";

const TOKEN = "gl-token-0123456789";
const issue = {
  object_kind: "issue",
  object_attributes: {
    iid: 23,
    title: "Crash on save",
    description: "Steps **here**",
    url: "https://hostb.example/g/p/-/issues/23",
    action: "open",
    state: "opened",
  },
  project: { web_url: "https://hostb.example/g/p", path_with_namespace: "g/p" },
  labels: [{ title: "bug" }, { title: "agent" }],
};
const mr = {
  ...issue,
  object_kind: "merge_request",
  object_attributes: {
    ...issue.object_attributes,
    iid: 7,
    title: "Fix save",
    url: "https://hostb.example/g/p/-/merge_requests/7",
  },
};

describe("code host B", () => {
  it("maps issue and merge_request events with the neutral and the vendor token header", async () => {
    const t = await startServer({ secrets: { codehost_b: TOKEN } });
    const a = await postJson(t.base, "/webhooks/codehost-b", issue, { "x-hostb-token": TOKEN });
    const b = await postJson(t.base, "/webhooks/gitlab", mr, { "x-gitlab-token": TOKEN });
    expect(a.json).toEqual({ status: "accepted", tickets: ["23"] });
    expect(b.json).toEqual({ status: "accepted", tickets: ["7"] });
    expect(t.tickets[0]).toMatchObject({
      id: "23",
      title: "Crash on save",
      description: "Steps **here**",
      ticketType: "issue",
      repoUrl: "https://hostb.example/g/p",
      externalUrl: "https://hostb.example/g/p/-/issues/23",
      labels: ["bug", "agent"],
      source: "codehost_b",
    });
    expect(t.tickets[1]).toMatchObject({
      id: "7",
      ticketType: "merge_request",
      externalUrl: "https://hostb.example/g/p/-/merge_requests/7",
    });
  });

  it("acknowledges other object kinds, and events without object_kind, with 200; rejects an issue without its attributes", async () => {
    const t = await startServer({ secrets: { gitlab: TOKEN } });
    const push = await postJson(t.base, "/webhooks/gitlab", { object_kind: "push" }, { "x-gitlab-token": TOKEN });
    expect(push.json).toEqual({ status: "ignored", reason: 'object_kind "push" is not ingested' });
    // The vendor's group member hooks carry event_name and no object_kind; a 4xx would get the hook disabled.
    const member = await postJson(
      t.base,
      "/webhooks/gitlab",
      { event_name: "user_add_to_group", group_id: 78 },
      { "x-gitlab-token": TOKEN },
    );
    expect(member.status).toBe(200);
    expect(member.json).toEqual({
      status: "ignored",
      reason: 'event without object_kind (event_name "user_add_to_group") is not ingested',
    });
    const bare = await postJson(t.base, "/webhooks/gitlab", { hello: 1 }, { "x-gitlab-token": TOKEN });
    expect(bare.json).toEqual({ status: "ignored", reason: "event without object_kind is not ingested" });
    const noAttrs = await postJson(t.base, "/webhooks/gitlab", { object_kind: "issue" }, { "x-gitlab-token": TOKEN });
    expect(noAttrs.status).toBe(400);
    expect(t.tickets).toHaveLength(0);
  });

  it("drops a redelivery by the neutral X-HostB-Event-UUID as by the vendor's X-Gitlab-Event-UUID", async () => {
    const t = await startServer({ secrets: { codehost_b: TOKEN } });
    const send = (header: string) =>
      postJson(t.base, "/webhooks/codehost-b", issue, { "x-hostb-token": TOKEN, [header]: `uuid-${header}` });
    expect((await send("x-hostb-event-uuid")).json.status).toBe("accepted");
    expect((await send("x-hostb-event-uuid")).json).toEqual({ status: "duplicate" });
    expect((await send("x-gitlab-event-uuid")).json.status).toBe("accepted");
    expect((await send("x-gitlab-event-uuid")).json).toEqual({ status: "duplicate" });
    expect(t.tickets).toHaveLength(2);
  });

  it("refuses a missing or wrong token with 401 without echoing the secret", async () => {
    const t = await startServer({ secrets: { codehost_b: TOKEN } });
    const none = await postJson(t.base, "/webhooks/codehost-b", issue);
    const wrong = await postJson(t.base, "/webhooks/codehost-b", issue, { "x-hostb-token": `${TOKEN}x` });
    const prefix = await postJson(t.base, "/webhooks/codehost-b", issue, { "x-hostb-token": TOKEN.slice(0, 5) });
    expect([none.status, wrong.status, prefix.status]).toEqual([401, 401, 401]);
    expect(none.json.error.message).toBe("missing token header X-HostB-Token or X-Gitlab-Token");
    for (const r of [none, wrong, prefix]) expect(r.text).not.toContain(TOKEN);
    expect(t.tickets).toHaveLength(0);
  });

  it("checks the token before reading the body", async () => {
    const t = await startServer({ secrets: { codehost_b: TOKEN } });
    // Announce a body and never send it: the 401 must come anyway.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(t.port, "127.0.0.1", () => {
        socket.write(
          "POST /webhooks/gitlab HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Gitlab-Token: nope\r\nContent-Length: 5000\r\n\r\n{",
        );
      });
      let data = "";
      socket.on("data", (d) => {
        data += d.toString();
        if (data.includes("\r\n\r\n") && data.includes("}}")) {
          socket.destroy();
          resolve(data);
        }
      });
      socket.on("error", reject);
    });
    expect(answer.startsWith("HTTP/1.1 401")).toBe(true);
  });

  it("drops redeliveries by X-Gitlab-Event-UUID and Idempotency-Key", async () => {
    const t = await startServer({ secrets: { codehost_b: TOKEN } });
    const h = { "x-gitlab-token": TOKEN };
    const r1 = await postJson(t.base, "/webhooks/gitlab", issue, { ...h, "x-gitlab-event-uuid": "u-1" });
    const r2 = await postJson(t.base, "/webhooks/gitlab", issue, { ...h, "x-gitlab-event-uuid": "u-1" });
    const r3 = await postJson(t.base, "/webhooks/gitlab", issue, { ...h, "idempotency-key": "k-1" });
    const r4 = await postJson(t.base, "/webhooks/gitlab", issue, { ...h, "idempotency-key": "k-1" });
    expect([r1, r2, r3, r4].map((r) => r.json.status)).toEqual(["accepted", "duplicate", "accepted", "duplicate"]);
    expect(t.tickets).toHaveLength(2);
  });
});
