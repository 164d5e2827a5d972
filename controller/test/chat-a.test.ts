import { describe, expect, it } from "vitest";
import { postJson, send } from "./helpers/http.js";
import { startServer } from "./helpers/server.js";
import { chatAHeaders, nowSeconds } from "./helpers/sign.js";

// The vendor's published request-signing example (a slash command).
const VECTOR = {
  secret: "8f742231b10e8888abcd99yyyzzz85a5",
  timestamp: 1531420618,
  signature: "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
  body:
    "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar"
    + "&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com"
    + "%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c",
};
const SECRET = "chat-signing-secret-1234";
const FORM = "application/x-www-form-urlencoded";

const blockActions = (actionId: string, value = "v") => ({
  type: "block_actions",
  trigger_id: "trig-1",
  user: { id: "U1", username: "ada" },
  channel: { id: "C1" },
  response_url: "https://chat.example/respond",
  actions: [{ action_id: actionId, value, text: { type: "plain_text", text: "Button" } }],
});

function postForm(base: string, path: string, body: string, headers: Record<string, string>) {
  return send(base, path, { body, headers: { "content-type": FORM, ...headers } });
}

describe("chat A", () => {
  it("accepts the vendor's published signature example with the clock fixed, as a slash-command ticket", async () => {
    const t = await startServer({ secrets: { slack: VECTOR.secret } }, { now: () => VECTOR.timestamp * 1000 + 30_000 });
    const headers = { "x-slack-signature": VECTOR.signature, "x-slack-request-timestamp": String(VECTOR.timestamp) };
    const res = await postForm(t.base, "/webhooks/slack", VECTOR.body, headers);
    expect(res.json).toEqual({
      status: "accepted",
      tickets: ["398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c"],
    });
    expect(t.tickets[0]).toMatchObject({
      title: "/webhook-collect",
      ticketType: "slack_interaction",
      source: "chat_a",
    });
    const tampered = await postForm(t.base, "/webhooks/slack", VECTOR.body.replace("roadrunner", "coyote"), headers);
    expect(tampered.status).toBe(401);
  });

  it("refuses timestamps more than five minutes away in either direction", async () => {
    const now = 1_700_000_000;
    const t = await startServer({ secrets: { chat_a: SECRET } }, { now: () => now * 1000 });
    const body = new URLSearchParams({ payload: JSON.stringify(blockActions("do_it")) }).toString();
    const at = async (ts: number) =>
      (await postForm(t.base, "/webhooks/chat", body, chatAHeaders(SECRET, body, ts))).status;
    expect(await at(now - 299)).toBe(200);
    expect(await at(now + 299)).toBe(200);
    expect(await at(now - 301)).toBe(401);
    expect(await at(now + 301)).toBe(401);
    const res = await postForm(t.base, "/webhooks/chat", body, {
      ...chatAHeaders(SECRET, body, now),
      "x-chat-request-timestamp": "soon",
    });
    expect(res.status).toBe(401);
    const missing = await postForm(t.base, "/webhooks/chat", body, {
      "x-chat-signature": chatAHeaders(SECRET, body, now)["x-chat-signature"] as string,
    });
    expect(missing.status).toBe(401);
  });

  it("maps JSON and form payloads of other interactions to slack_interaction tickets", async () => {
    const t = await startServer({ secrets: { chat_a: SECRET } });
    const json = JSON.stringify(blockActions("rerun", "ticket 12"));
    const a = await postJson(t.base, "/webhooks/chat", json, chatAHeaders(SECRET, json, nowSeconds()));
    const form = new URLSearchParams({ payload: json }).toString();
    const b = await postForm(t.base, "/webhooks/slack", form, chatAHeaders(SECRET, form, nowSeconds(), true));
    expect([a.json, b.json]).toEqual([
      { status: "accepted", tickets: ["trig-1"] },
      { status: "accepted", tickets: ["trig-1"] },
    ]);
    expect(t.tickets[0]).toMatchObject({
      id: "trig-1",
      title: "ticket 12",
      description: "ticket 12",
      ticketType: "slack_interaction",
    });
    expect(t.approvals).toHaveLength(0);
  });

  it("acknowledges payloads that are not interactions (no type, Events API envelopes) without a ticket", async () => {
    const t = await startServer({ secrets: { chat_a: SECRET } });
    const post = (payload: unknown) => {
      const json = JSON.stringify(payload);
      return postJson(t.base, "/webhooks/chat", json, chatAHeaders(SECRET, json, nowSeconds()));
    };
    expect((await post({})).json).toEqual({
      status: "ignored",
      reason: "payload has no type: not an interaction or a slash command",
    });
    expect((await post({ type: "url_verification", challenge: "abc" })).json).toEqual({
      status: "ignored",
      reason: "url_verification is an Events API payload; this route serves interactivity and slash commands only",
    });
    expect((await post({ type: "event_callback", event: { type: "app_mention" } })).json.status).toBe("ignored");
    expect(t.tickets).toHaveLength(0);
    // A shortcut has no actions: still an interaction, titled by its type.
    expect((await post({ type: "shortcut", trigger_id: "trig-s", callback_id: "start_agent" })).json).toEqual({
      status: "accepted",
      tickets: ["trig-s"],
    });
    expect(t.tickets[0]).toMatchObject({ id: "trig-s", title: "shortcut", ticketType: "slack_interaction" });
  });

  it("routes agent_approval_ actions to the approval handler and never makes a ticket of them", async () => {
    const t = await startServer({ secrets: { chat_a: SECRET } });
    const form = new URLSearchParams({
      payload: JSON.stringify(blockActions("agent_approval_approve", "run-7")),
    }).toString();
    const res = await postForm(t.base, "/webhooks/chat", form, chatAHeaders(SECRET, form, nowSeconds()));
    expect(res.json).toEqual({ status: "accepted", tickets: [], approvals: 1 });
    expect(t.tickets).toHaveLength(0);
    expect(t.approvals[0]).toMatchObject({
      source: "chat_a",
      actionId: "agent_approval_approve",
      value: "run-7",
      userId: "U1",
      username: "ada",
      channelId: "C1",
      triggerId: "trig-1",
      responseUrl: "https://chat.example/respond",
    });
  });

  it("acknowledges approvals without a ticket when no approval handler is set", async () => {
    const t = await startServer({ secrets: { chat_a: SECRET } }, { withApprovals: false });
    const json = JSON.stringify(blockActions("agent_approval_reject"));
    const res = await postJson(t.base, "/webhooks/chat", json, chatAHeaders(SECRET, json, nowSeconds()));
    expect(res.json).toEqual({ status: "ignored", reason: "no approval handler is configured" });
    expect(t.tickets).toHaveLength(0);
  });

  it("answers 400 for forms without payload or command, 400 for bad JSON, 415 for other types", async () => {
    const t = await startServer({ secrets: { chat_a: SECRET } });
    const form = "a=1&b=2";
    expect((await postForm(t.base, "/webhooks/chat", form, chatAHeaders(SECRET, form, nowSeconds()))).status).toBe(400);
    const badPayload = "payload=%7Bnope";
    expect(
      (await postForm(t.base, "/webhooks/chat", badPayload, chatAHeaders(SECRET, badPayload, nowSeconds()))).status,
    ).toBe(400);
    const xml = "<a/>";
    const res = await send(t.base, "/webhooks/chat", {
      body: xml,
      headers: { "content-type": "text/xml", ...chatAHeaders(SECRET, xml, nowSeconds()) },
    });
    expect(res.status).toBe(415);
    expect(res.json.error.code).toBe("ERR_UNSUPPORTED_MEDIA_TYPE");
  });
});
