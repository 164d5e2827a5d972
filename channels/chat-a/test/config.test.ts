import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_API_BASE_URL, parseChatAConfig, VERSION } from "../src/index.js";

const secrets = { "chat-a-token": "xoxb-1234-secret-value" };
const base = { channel_id: "C0123456789", token_secret: "chat-a-token" };

async function problem(config: Record<string, unknown>, given: Record<string, string> = secrets) {
  try {
    await parseChatAConfig(config, given);
  } catch (error) {
    return error as { code: string; message: string; hint?: string };
  }
  throw new Error("expected the config to be refused");
}

describe("parseChatAConfig", () => {
  it("resolves the token secret and defaults the API base URL, pace and digest threshold", async () => {
    expect(await parseChatAConfig(base, secrets)).toEqual({
      channelId: "C0123456789",
      tokenSecret: "chat-a-token",
      token: "xoxb-1234-secret-value",
      apiBaseUrl: DEFAULT_API_BASE_URL,
      minIntervalMs: 1000,
      digestThreshold: 5,
    });
  });

  it("takes digest_threshold from 1 to 1000, and says what it is when refusing one", async () => {
    expect((await parseChatAConfig({ ...base, digest_threshold: 1 }, secrets)).digestThreshold).toBe(1);
    expect((await parseChatAConfig({ ...base, digest_threshold: 1000 }, secrets)).digestThreshold).toBe(1000);
    for (const value of [0, 1001, 2.5, "5"]) {
      expect((await problem({ ...base, digest_threshold: value })).message).toBe(
        "chat_a: invalid config: config.digest_threshold: must be an integer between 1 and 1000: the number of waiting notifications above which they are sent as one digest; leave it out for 5",
      );
    }
  });

  it("refuses a channel name where an ID belongs, and says how to find the ID", async () => {
    for (const name of ["#general", "general", "Team Alerts"]) {
      const error = await problem({ ...base, channel_id: name });
      expect(error.code).toBe("ERR_INVALID_CONFIG");
      expect(error.message).toBe(
        `chat_a: invalid config: config.channel_id: ${JSON.stringify(name)} looks like a channel name, not a channel ID: use the channel's ID (e.g. C0123456789): open the channel, click its name, and copy the ID shown at the bottom of the About tab`,
      );
      expect(error.hint).toContain("config block");
    }
    expect((await problem({ ...base, channel_id: "X12" })).message).toContain("is not a channel ID");
  });

  it("refuses an inline token without echoing it", async () => {
    const error = await problem({ ...base, token: "xoxb-inline-secret" });
    expect(error.message).toBe(
      "chat_a: invalid config: config: an inline token in config is refused: store the bot token in a secret and name that secret in token_secret",
    );
    expect(JSON.stringify(error)).not.toContain("xoxb-inline-secret");
    expect(error.message + (error.hint ?? "")).not.toContain("xoxb-inline-secret");
  });

  it("names a missing secret but never prints secret values", async () => {
    const error = await problem(base, {});
    expect(error.message).toContain('"chat-a-token"');
    expect((await problem({ channel_id: "C0123456789" })).message).toBe(
      "chat_a: invalid config: config.token_secret: is required: set it to the name of the secret that holds the bot token",
    );
  });

  it("refuses a token that could never be sent, naming the secret, what is wrong and where, never the token", async () => {
    const cases: [string, string][] = [
      ["xoxb-1234-secret\nvalue", "contains a line break at character 17"],
      ["xoxb-1234-secret\r\nvalue", "contains a line break at character 17"],
      ["xoxb-1234-secret-value✓", "contains a character that is not printable ASCII (U+2713) at character 23"],
      ["xoxb-1234-secret\u0000value", "contains a control character (U+0000) at character 17"],
      ["xoxb-1234-secret value", "contains a space or tab at character 17"],
      ["xoxb-1234-secret\u00a0value", "contains a space character (U+00A0) at character 17"],
      ["\u200bxoxb-1234-secret-value", "contains a character that is not printable ASCII (U+200B) at character 1"],
      ["  xoxb-1234-secret\tvalue\n", "contains a space or tab at character 19"],
      ['"xoxb-1234-secret-value"', "is wrapped in quotes"],
    ];
    for (const [value, what] of cases) {
      const error = await problem(base, { "chat-a-token": value });
      expect(error.code).toBe("ERR_INVALID_CONFIG");
      expect(error.message).toBe(
        `chat_a: the secret "chat-a-token" named by token_secret ${what}, so it cannot be a bot token`,
      );
      expect(error.hint).toContain(
        'copy the bot token (xoxb-…) again from OAuth & Permissions and store it in the secret "chat-a-token" alone',
      );
      expect(`${error.message} ${error.hint}`).not.toMatch(/secret-?value|1234/);
    }
  });

  it("drops whitespace around the token, such as the trailing newline of a file", async () => {
    for (const value of ["xoxb-1234-secret-value\n", "xoxb-1234-secret-value\r\n", "  xoxb-1234-secret-value \n\n"]) {
      expect((await parseChatAConfig(base, { "chat-a-token": value })).token).toBe("xoxb-1234-secret-value");
    }
  });

  it("accepts https and loopback http base URLs only, trimming a trailing slash", async () => {
    expect(
      (await parseChatAConfig({ ...base, api_base_url: "https://chat.example.com/api/" }, secrets)).apiBaseUrl,
    ).toBe("https://chat.example.com/api");
    expect((await parseChatAConfig({ ...base, api_base_url: "http://127.0.0.1:9999/api" }, secrets)).apiBaseUrl).toBe(
      "http://127.0.0.1:9999/api",
    );
    expect((await problem({ ...base, api_base_url: "http://chat.example.com/api" })).message).toContain("https");
    expect((await problem({ ...base, api_base_url: "not a url" })).message).toContain("not a valid URL");
    expect((await problem({ ...base, api_base_url: "https://x.example/api?token=1" })).message).toContain("query");
  });

  it("allows a faster pace only against a custom endpoint", async () => {
    expect((await problem({ ...base, min_interval_ms: 100 })).message).toContain("custom api_base_url");
    expect(
      (await parseChatAConfig({ ...base, api_base_url: "http://localhost:1/api", min_interval_ms: 100 }, secrets))
        .minIntervalMs,
    ).toBe(100);
    expect((await problem({ ...base, min_interval_ms: -1 })).message).toContain("integer");
  });

  it("refuses unknown keys, naming them", async () => {
    expect((await problem({ ...base, chanel_id: "C1" })).message).toBe(
      'chat_a: invalid config: config: unknown key(s) "chanel_id": known keys are channel_id, token_secret, api_base_url, min_interval_ms, digest_threshold',
    );
  });

  it("lists every problem of the config at once, each with its path", async () => {
    const error = await problem({
      channel_id: "#general",
      token_secret: 7,
      api_base_url: "http://chat.example.com",
      min_interval_ms: 1.5,
      colour: "red",
    });
    expect(error.code).toBe("ERR_INVALID_CONFIG");
    expect(error.message).toMatch(/^chat_a: invalid config \(5 problems\): /);
    for (const part of [
      'config.channel_id: "#general" looks like a channel name',
      "config.token_secret: must be a string: the name of the secret that holds the bot token",
      "config.api_base_url: must use https",
      "config.min_interval_ms: must be an integer between 0 and 60000",
      'config: unknown key(s) "colour"',
    ]) {
      expect(error.message).toContain(part);
    }
  });

  it("keeps VERSION equal to the package version", async () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});
