import { describe, expect, it } from "vitest";
import { postJson } from "./helpers/http.js";
import { startServer } from "./helpers/server.js";
import { hmacHex, nowSeconds, standardWebhooksHeaders } from "./helpers/sign.js";

const SECRET = "generic-secret-value";
const WHSEC = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;

describe("generic source", () => {
  it("maps the flat default when no field_mapping is set, numeric ids as strings", async () => {
    const t = await startServer({ generic: { auth_mode: "bearer", secret: SECRET } });
    const auth = { authorization: `Bearer ${SECRET}` };
    const res = await postJson(
      t.base,
      "/webhooks/generic",
      {
        id: 17,
        title: "T",
        description: "D",
        repo_url: "https://r",
        ticket_type: "feature",
        external_url: "https://e",
        labels: ["a", { name: "b" }],
      },
      auth,
    );
    expect(res.json).toEqual({ status: "accepted", tickets: ["17"] });
    expect(t.tickets[0]).toMatchObject({
      id: "17",
      title: "T",
      description: "D",
      repoUrl: "https://r",
      ticketType: "feature",
      externalUrl: "https://e",
      labels: ["a", "b"],
      source: "generic",
    });
    const noId = await postJson(t.base, "/webhooks/generic", { title: "no id" }, auth);
    expect(noId.status).toBe(400);
    expect(noId.json.error.code).toBe("ERR_MISSING_FIELD");
    // Digits a JSON number cannot carry are refused rather than turned into another id.
    for (const id of ["12345678901234567890123", "9007199254740992", "1.5"]) {
      const res = await postJson(t.base, "/webhooks/generic", `{"id":${id},"title":"x"}`, auth);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("ERR_INVALID_BODY");
      expect(res.json.error.message).toMatch(/^id is (too large|not a whole number).*send the id as a JSON string$/);
    }
    expect(
      (await postJson(t.base, "/webhooks/generic", `{"id":"12345678901234567890123"}`, auth)).json.tickets,
    ).toEqual(["12345678901234567890123"]);
    expect((await postJson(t.base, "/webhooks/generic", [1, 2], auth)).status).toBe(400);
    expect((await postJson(t.base, "/webhooks/generic", "{", auth)).status).toBe(400);
  });

  it("follows dot paths with array indices in both spellings", async () => {
    const t = await startServer({
      generic: {
        auth_mode: "bearer",
        secret: SECRET,
        field_mapping: {
          "data.items[1].key": "id",
          "data.items.0.summary": "title",
          "meta.kind": "ticket_type",
          "data.tags": "labels",
          "links.html": "external_url",
        },
      },
    });
    const auth = { authorization: `bearer ${SECRET}` };
    const body = {
      data: { items: [{ summary: "first" }, { key: 9007199254740991 }], tags: [{ name: "x" }, "y", 3] },
      meta: { kind: "bug_fix" },
      links: { html: "https://h" },
    };
    const res = await postJson(t.base, "/webhooks/generic", body, auth);
    expect(res.json.tickets).toEqual(["9007199254740991"]);
    expect(t.tickets[0]).toMatchObject({
      title: "first",
      ticketType: "bug_fix",
      labels: ["x", "y"],
      externalUrl: "https://h",
      description: "",
    });
    const outOfRange = await postJson(t.base, "/webhooks/generic", { data: { items: [{}] } }, auth);
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.json.error.message).toContain("data.items[1].key");
    const objectTitle = await postJson(
      t.base,
      "/webhooks/generic",
      { data: { items: [{ summary: { x: 1 } }, { key: "k" }] } },
      auth,
    );
    expect(objectTitle.status).toBe(400);
    const emptyId = await postJson(t.base, "/webhooks/generic", { data: { items: [{}, { key: "" }] } }, auth);
    expect(emptyId.status).toBe(400);
    const boolId = await postJson(t.base, "/webhooks/generic", { data: { items: [{}, { key: true }] } }, auth);
    expect(boolId.status).toBe(400);
  });

  it("never follows a path into the prototype", async () => {
    const t = await startServer({
      generic: { auth_mode: "bearer", secret: SECRET, field_mapping: { "constructor.name": "id" } },
    });
    const res = await postJson(t.base, "/webhooks/generic", { title: "x" }, { authorization: `Bearer ${SECRET}` });
    expect(res.status).toBe(400);
  });

  it("hmac mode: default header, custom header, with or without sha256=", async () => {
    const a = await startServer({ generic: { auth_mode: "hmac", secret: SECRET } });
    const body = JSON.stringify({ id: "a-1" });
    expect(
      (await postJson(a.base, "/webhooks/generic", body, { "x-webhook-signature": hmacHex(SECRET, body) })).status,
    ).toBe(200);
    expect(
      (await postJson(a.base, "/webhooks/generic", body, { "x-webhook-signature": `sha256=${hmacHex(SECRET, body)}` }))
        .status,
    ).toBe(200);
    expect(
      (await postJson(a.base, "/webhooks/generic", body, { "x-webhook-signature": hmacHex("nope", body) })).status,
    ).toBe(401);
    expect((await postJson(a.base, "/webhooks/generic", body)).status).toBe(401);
    const b = await startServer({ generic: { auth_mode: "hmac", secret: SECRET, signature_header: "X-Custom-Sig" } });
    expect(
      (await postJson(b.base, "/webhooks/generic", body, { "x-webhook-signature": hmacHex(SECRET, body) })).status,
    ).toBe(401);
    expect((await postJson(b.base, "/webhooks/generic", body, { "x-custom-sig": hmacHex(SECRET, body) })).status).toBe(
      200,
    );
  });

  it("bearer mode refuses missing, wrong and differently sized tokens", async () => {
    const t = await startServer({ generic: { auth_mode: "bearer", secret: SECRET } });
    const body = { id: 1 };
    for (const value of [undefined, `Bearer ${SECRET}x`, "Bearer ", `Basic ${SECRET}`, SECRET]) {
      const res = await postJson(
        t.base,
        "/webhooks/generic",
        body,
        value === undefined ? {} : { authorization: value },
      );
      expect(res.status, String(value)).toBe(401);
      expect(res.text).not.toContain(SECRET);
    }
    expect(t.tickets).toHaveLength(0);
  });

  it("standard_webhooks mode: valid, rotated, tampered, stale, and dedupe by webhook-id", async () => {
    const t = await startServer({ generic: { auth_mode: "standard_webhooks", secret: WHSEC } });
    const body = JSON.stringify({ id: "sw-1", title: "std" });
    const ok = await postJson(
      t.base,
      "/webhooks/generic",
      body,
      standardWebhooksHeaders(WHSEC, "msg_1", nowSeconds(), body),
    );
    expect(ok.json).toEqual({ status: "accepted", tickets: ["sw-1"] });
    const again = await postJson(
      t.base,
      "/webhooks/generic",
      body,
      standardWebhooksHeaders(WHSEC, "msg_1", nowSeconds(), body),
    );
    expect(again.json).toEqual({ status: "duplicate" });
    const rotated = standardWebhooksHeaders(WHSEC, "msg_2", nowSeconds(), body);
    rotated["webhook-signature"] = `v1,AAAA v1a,zzz ${rotated["webhook-signature"]}`;
    expect((await postJson(t.base, "/webhooks/generic", body, rotated)).status).toBe(200);
    const tampered = standardWebhooksHeaders(WHSEC, "msg_3", nowSeconds(), body);
    expect((await postJson(t.base, "/webhooks/generic", body.replace("std", "STD"), tampered)).status).toBe(401);
    const otherId = { ...standardWebhooksHeaders(WHSEC, "msg_4", nowSeconds(), body), "webhook-id": "msg_5" };
    expect((await postJson(t.base, "/webhooks/generic", body, otherId)).status).toBe(401);
    const stale = standardWebhooksHeaders(WHSEC, "msg_6", nowSeconds() - 600, body);
    expect((await postJson(t.base, "/webhooks/generic", body, stale)).status).toBe(401);
    const future = standardWebhooksHeaders(WHSEC, "msg_7", nowSeconds() + 600, body);
    expect((await postJson(t.base, "/webhooks/generic", body, future)).status).toBe(401);
    expect(t.tickets).toHaveLength(2);
  });

  it("auth_mode none accepts anything well-formed", async () => {
    const t = await startServer({ generic: {} });
    expect((await postJson(t.base, "/webhooks/generic", { id: "n" })).status).toBe(200);
  });
});
