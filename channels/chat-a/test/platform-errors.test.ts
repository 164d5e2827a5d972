import { silentLogger } from "@errand/channel-sdk/host";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatAConfig, createChatAClient } from "../src/index.js";
import { type FakeSlack, startFakeSlack } from "./fake-slack.js";
import { rejectionOf, SECRETS, TOKEN } from "./helpers.js";

let fake: FakeSlack;
beforeAll(async () => {
  fake = await startFakeSlack({ intervalMs: 0, toleranceMs: 0 });
});
afterAll(async () => {
  await fake.close();
});

const post = async (body: string, headers: Record<string, string>) => {
  const response = await fetch(`${fake.apiBaseUrl}/chat.postMessage`, { method: "POST", body, headers });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
};
const valid = JSON.stringify({ channel: "C0000000001", text: "hi" });
const bearer = { authorization: `Bearer ${TOKEN}` };

describe("the fake is as strict as the platform", () => {
  it("authentication: not_authed without a Bearer token, invalid_auth with an unknown one", async () => {
    expect((await post(valid, { "content-type": "application/json" })).json).toEqual({
      ok: false,
      error: "not_authed",
    });
    expect((await post(valid, { "content-type": "application/json", authorization: "Bearer xoxb-nope" })).json).toEqual(
      { ok: false, error: "invalid_auth" },
    );
  });

  it("content type: missing_post_type, invalid_post_type, and a missing_charset warning", async () => {
    const none = await fetch(`${fake.apiBaseUrl}/chat.postMessage`, {
      method: "POST",
      body: new Uint8Array(Buffer.from(valid)),
      headers: bearer,
    });
    expect(await none.json()).toEqual({ ok: false, error: "missing_post_type" });
    expect((await post(valid, { ...bearer, "content-type": "text/plain" })).json.error).toBe("invalid_post_type");
    const warned = await post(valid, { ...bearer, "content-type": "application/json" });
    expect(warned.json).toMatchObject({ ok: true, warning: "missing_charset" });
    expect((await post("{nope", { ...bearer, "content-type": "application/json; charset=utf-8" })).json.error).toBe(
      "invalid_json",
    );
  });

  it("answers HTTP 200 with ok:false for errors and 404 for unknown methods", async () => {
    const response = await fetch(`${fake.apiBaseUrl}/chat.postMessag`, { method: "POST" });
    expect(response.status).toBe(404);
    expect(
      (
        await post(JSON.stringify({ channel: "C0000000001" }), {
          ...bearer,
          "content-type": "application/json; charset=utf-8",
        })
      ).json.error,
    ).toBe("no_text");
  });
});

describe("request errors the renderer never causes still map to clear errors", () => {
  // The client takes a config the channel already validated; the schema's own tests are in config.test.ts.
  const configFor = (apiBaseUrl: string): ChatAConfig => ({
    channelId: "C0000000001",
    tokenSecret: "chat-a-token",
    token: SECRETS["chat-a-token"],
    apiBaseUrl,
    minIntervalMs: 1000,
    digestThreshold: 5,
  });
  const client = createChatAClient(configFor("http://127.0.0.1:1/api"), silentLogger);
  const clientFor = () => createChatAClient(configFor(fake.apiBaseUrl), silentLogger);

  it("invalid_blocks carries the platform's JSON pointers", async () => {
    const error = await rejectionOf(
      clientFor().postMessage(
        { text: "x", blocks: [{ type: "section", text: { type: "mrkdwn", text: "a".repeat(3001) } }] },
        AbortSignal.timeout(2000),
      ),
    );
    expect(error.code).toBe("ERR_INVALID_ARGUMENT");
    expect(error.message).toContain(
      "invalid_blocks: must be less than 3001 characters [json-pointer:/blocks/0/text/text]",
    );
    expect(error.hint).toContain("bug in the chat_a channel");
  });

  it("msg_too_long, header and fields limits, 50 blocks", async () => {
    const tooLong = await rejectionOf(
      clientFor().postMessage({ text: "a".repeat(40_001), blocks: [] }, AbortSignal.timeout(2000)),
    );
    expect(tooLong.message).toContain("msg_too_long");
    const blocks = [
      { type: "header" as const, text: { type: "plain_text" as const, text: "h".repeat(151) } },
      { type: "section" as const, fields: Array.from({ length: 11 }, () => ({ type: "mrkdwn" as const, text: "f" })) },
      ...Array.from({ length: 49 }, () => ({ type: "divider" as const })),
    ];
    const invalid = await rejectionOf(clientFor().postMessage({ text: "x", blocks }, AbortSignal.timeout(2000)));
    expect(invalid.message).toContain("must provide no more than 50 items [json-pointer:/blocks]");
    expect(invalid.message).toContain("/blocks/0/text/text");
    expect(invalid.message).toContain("/blocks/1/fields");
  });

  it("an unreachable platform is a retryable UnavailableError that names the URL but not the token", async () => {
    const error = await rejectionOf(client.postMessage({ text: "x", blocks: [] }, AbortSignal.timeout(2000)));
    expect(error.code).toBe("ERR_UNAVAILABLE");
    expect(error.message).toContain("127.0.0.1:1");
    expect(error.message).not.toContain(TOKEN);
  });
});
