import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseChatBConfig, VERSION } from "../src/index.js";

const URL_VALUE = "https://discord.com/api/webhooks/123456789012345678/s3cr3t-token_value";
const secrets = { "chat-b-webhook": URL_VALUE };
const base = { webhook_url_secret: "chat-b-webhook" };

async function problem(config: Record<string, unknown>, given: Record<string, string> = secrets) {
  try {
    await parseChatBConfig(config, given);
  } catch (error) {
    const e = error as { code: string; message: string; hint?: string };
    // The URL is the credential: no error may show more than its origin.
    expect(`${e.message} ${e.hint}`).not.toContain("s3cr3t");
    expect(`${e.message} ${e.hint}`).not.toContain("123456789012345678");
    return e;
  }
  throw new Error("expected the config to be refused");
}

describe("parseChatBConfig", () => {
  it("resolves the webhook URL and the optional display name and avatar", async () => {
    expect(
      await parseChatBConfig(
        { ...base, username: "Errand", avatar_url: "https://cdn.example.com/errand.png" },
        secrets,
      ),
    ).toEqual({
      webhookUrlSecret: "chat-b-webhook",
      webhookUrl: URL_VALUE,
      webhookId: "123456789012345678",
      shownUrl: "https://discord.com/…",
      username: "Errand",
      avatarUrl: "https://cdn.example.com/errand.png",
      digestThreshold: 5,
    });
  });

  it("takes digest_threshold from 1 to 1000, and says what it is when refusing one", async () => {
    expect((await parseChatBConfig({ ...base, digest_threshold: 40 }, secrets)).digestThreshold).toBe(40);
    for (const value of [0, 1001, 2.5, "5"]) {
      expect((await problem({ ...base, digest_threshold: value })).message).toBe(
        "chat_b: invalid config: config.digest_threshold: must be an integer between 1 and 1000: the number of waiting notifications above which they are sent as one digest; leave it out for 5",
      );
    }
  });

  it("refuses an inline webhook URL", async () => {
    expect((await problem({ ...base, webhook_url: URL_VALUE })).message).toContain("inline webhook URL");
  });

  it("names a missing secret and refuses secrets that are no webhook URL, showing only the origin", async () => {
    expect((await problem(base, {})).message).toContain('"chat-b-webhook"');
    expect((await problem(base, { "chat-b-webhook": "not a url s3cr3t" })).message).toContain("valid URL");
    expect(
      (await problem(base, { "chat-b-webhook": "http://discord.com/api/webhooks/123456789012345678/s3cr3t" })).message,
    ).toContain("https");
    const wrongPath = await problem(base, { "chat-b-webhook": "https://hooks.example.com/services/T0/B0/s3cr3t" });
    expect(wrongPath.message).toContain("https://hooks.example.com/api/webhooks/<id>/<token>");
    expect((await problem(base, { "chat-b-webhook": `${URL_VALUE}?wait=true` })).message).toContain(
      "webhook URL of the form",
    );
  });

  it("refuses a webhook URL with characters a copied URL never has, instead of letting the URL parser drop or encode them", async () => {
    const cases: [string, string][] = [
      [`${URL_VALUE.slice(0, 60)}\n${URL_VALUE.slice(60)}`, "contains a line break at character 61"],
      [`${URL_VALUE}✓`, "contains a character that is not printable ASCII (U+2713) at character 71"],
      [
        `${URL_VALUE.slice(0, 60)}\u0000${URL_VALUE.slice(60)}`,
        "contains a control character (U+0000) at character 61",
      ],
      [`${URL_VALUE.slice(0, 60)}\t${URL_VALUE.slice(60)}`, "contains a space or tab at character 61"],
      [`${URL_VALUE} ${URL_VALUE}`, "contains a space or tab at character 71"],
      [`'${URL_VALUE}'`, "is wrapped in quotes"],
    ];
    for (const [value, what] of cases) {
      const error = await problem(base, { "chat-b-webhook": value });
      expect(error.code).toBe("ERR_INVALID_CONFIG");
      expect(error.message).toBe(
        `chat_b: the secret "chat-b-webhook" named by webhook_url_secret ${what}, so it is not a usable webhook URL`,
      );
      expect(error.hint).toContain(
        'copy the webhook URL again (channel settings → Integrations → Webhooks → Copy Webhook URL) and store it in the secret "chat-b-webhook" alone',
      );
    }
  });

  it("drops whitespace around the webhook URL, such as the trailing newline of a file", async () => {
    for (const value of [`${URL_VALUE}\n`, `${URL_VALUE}\r\n`, `  ${URL_VALUE}\n\n`]) {
      expect((await parseChatBConfig(base, { "chat-b-webhook": value })).webhookUrl).toBe(URL_VALUE);
    }
  });

  it("refuses display names the platform refuses", async () => {
    expect((await problem({ ...base, username: "My Discord Bot" })).message).toContain('"discord"');
    expect((await problem({ ...base, username: "clyde" })).message).toContain('"clyde"');
    expect((await problem({ ...base, username: "x".repeat(81) })).message).toContain("1 to 80");
    expect((await problem({ ...base, avatar_url: "ftp://x" })).message).toContain("avatar_url");
    expect((await problem({ ...base, colour: 1 })).message).toBe(
      'chat_b: invalid config: config: unknown key(s) "colour": known keys are webhook_url_secret, username, avatar_url, digest_threshold',
    );
  });

  it("lists every problem of the config at once, each with its path", async () => {
    const error = await problem({
      username: "Discord",
      avatar_url: "ftp://x",
      url: "https://discord.com/api/webhooks/123456789012345678/s3cr3t",
    });
    expect(error.message).toMatch(/^chat_b: invalid config \(4 problems\): /);
    for (const part of [
      "config.webhook_url_secret: is required: set it to the name of the secret that holds the webhook URL",
      'config.username: "Discord" contains "discord", which the platform refuses in webhook names',
      "config.avatar_url: must be an http(s) URL of an image",
      "config: an inline webhook URL in config is refused (the URL itself is the credential)",
    ]) {
      expect(error.message).toContain(part);
    }
  });

  it("keeps VERSION equal to the package version", async () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});
