import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSecretMask } from "@errand/channel-sdk/host";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/support/temp-dir.js";
import { loadControllerConfig, printableConfig } from "../src/config/index.js";
import {
  createSecretStore,
  looksLikeToken,
  resolveSecrets,
  SecretNotFoundError,
  secretEnvName,
  secretNameProblem,
  secretValues,
} from "../src/secrets/index.js";

const dir = tempDir("errand-secrets-");
const secretsDir = join(dir, "secrets");
mkdirSync(join(secretsDir, "a-folder"), { recursive: true });
writeFileSync(join(secretsDir, "chat-a-token"), "from-file\n");
writeFileSync(join(secretsDir, "crlf"), "windows\r\n");
writeFileSync(join(secretsDir, "blank"), "\n");
writeFileSync(join(dir, "outside"), "must not be read");

describe("secret store", () => {
  it("maps a name to its environment variable", () => {
    expect(secretEnvName("chat-a-token")).toBe("ERRAND_SECRET_CHAT_A_TOKEN");
    expect(secretEnvName("CHAT_A_TOKEN")).toBe("ERRAND_SECRET_CHAT_A_TOKEN");
    expect(secretEnvName("tracker.token-v2")).toBe("ERRAND_SECRET_TRACKER_TOKEN_V2");
  });

  it("reads the environment first, then <dir>/<name> without its trailing newline", () => {
    const store = createSecretStore({
      env: { ERRAND_SECRET_CHAT_A_TOKEN: "from-env", ERRAND_SECRET_EMPTY: "" },
      dir: secretsDir,
    });
    expect(store.resolve("chat-a-token")).toBe("from-env");
    expect(createSecretStore({ env: {}, dir: secretsDir }).resolve("chat-a-token")).toBe("from-file");
    expect(store.resolve("crlf")).toBe("windows");
    expect(store.resolve("blank")).toBeUndefined();
    expect(store.resolve("empty")).toBeUndefined();
    expect(store.resolve("nowhere")).toBeUndefined();
    expect(store.resolve("a-folder")).toBeUndefined();
    expect(store.resolve("../outside")).toBeUndefined();
  });

  it("describes where it looked and what it found there", () => {
    const store = createSecretStore({ env: { ERRAND_SECRET_EMPTY: "" }, dir: secretsDir });
    expect(store.describe("nowhere")).toEqual([
      "environment variable ERRAND_SECRET_NOWHERE (not set)",
      `file ${join(secretsDir, "nowhere")} (not found)`,
    ]);
    expect(store.describe("empty")[0]).toBe("environment variable ERRAND_SECRET_EMPTY (empty)");
    expect(store.describe("blank")[1]).toBe(`file ${join(secretsDir, "blank")} (empty)`);
    expect(store.describe("a-folder")[1]).toBe(`file ${join(secretsDir, "a-folder")} (a folder, not a file)`);
    expect(createSecretStore({ env: {} }).describe("x")).toEqual([
      "environment variable ERRAND_SECRET_X (not set)",
      "no secrets folder (secrets.dir is not set)",
    ]);
  });
});

describe("token-looking values", () => {
  it("recognises vendor prefixes and URLs", () => {
    expect(looksLikeToken("xoxb-123-456-abc")).toBe("a chat bot token");
    expect(looksLikeToken("xoxp-1")).toBe("a chat user token");
    expect(looksLikeToken("ghp_abc")).toBe("a code host access token");
    expect(looksLikeToken("github_pat_11AB")).toBe("a code host access token");
    expect(looksLikeToken("glpat-abc")).toBe("a code host access token");
    expect(looksLikeToken("sk-ant-api03-x")).toBe("an Anthropic API key");
    expect(looksLikeToken("sk-proj-x")).toBe("an API key");
    expect(looksLikeToken("lin_api_x")).toBe("a tracker API key");
    expect(looksLikeToken("https://hooks.example/x")).toBe("a URL (which may carry a credential)");
    expect(looksLikeToken("postgres://u:p@h/db")).toBe("a URL (which may carry a credential)");
  });

  it("recognises random strings of 32 characters and more", () => {
    for (const token of [
      "8f742231b10e8888abcd99yyyzzz85a5",
      "f685619edb70b7ca2b455df5436f1ad5bb4a936e",
      "NnxDejr85m43Oy38bOnm3k_jLCxOIZm3",
      "Zq8vN3kLx72PbR5tYw9cJd4Fh6Gm1Sa0",
      "2d606503b7a585ed9375bed92206d16a",
    ]) {
      expect(looksLikeToken(token), token).toBe("a random token");
    }
  });

  it("leaves names alone, even long ones with digits", () => {
    for (const name of [
      "chat-a-token",
      "CHAT_A_TOKEN",
      "sk",
      "skills-token",
      "xoxb",
      "notifications-chat-a-bot-token-production",
      "CHAT_A_TOKEN_FOR_PRODUCTION_TEAM_2024",
      "team-2024-production-chat-a-webhook-url",
      "my-org-tracker-a-api-token-v2-2025-rotated",
      "ChatATokenForProductionTeam20242025",
      "MyServiceChatTokenForTheProductionTeam",
      "prod.k8s.v1.errand.chat-a.token.2025-01-01",
      "a1b2c3-chat-token-for-the-prod-team-v2",
      "0123456789abcdef", // short hex: a name is allowed to be this
    ]) {
      expect(looksLikeToken(name), name).toBeUndefined();
      expect(secretNameProblem(name), name).toBeUndefined();
    }
  });

  it("explains how to move a token into a secret", () => {
    expect(secretNameProblem("xoxb-1-2-3")).toEqual({
      message: "looks like a chat bot token, not like the name of a secret",
      fix: expect.stringContaining(
        "put the value in a secret (for example the environment variable ERRAND_SECRET_MY_TOKEN",
      ),
    });
    expect(secretNameProblem("has space")?.message).toBe('"has space" is not a secret name');
    expect(secretNameProblem("-leading")?.message).toBe('"-leading" is not a secret name');
    expect(secretNameProblem("x".repeat(254))?.message).toContain("is not a secret name");
  });
});

describe("resolveSecrets", () => {
  async function config(text: string) {
    const path = join(dir, `c${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(path, text);
    return (await loadControllerConfig(path, { env: {} })).config;
  }
  const full = `
secrets: { dir: secrets }
notifications:
  channels:
    - { backend: chat_a, config: { channel_id: C1, token_secret: chat-a-token } }
    - { backend: chat_b, config: { webhook_url_secret: chat-b-url } }
    - { backend: chat_a, name: second, config: { token_secret: chat-b-url } }
ticketing:
  backend: codehost_a
  config: { token_secret: gh-token, owner: acme, repo: app }
engines:
  claude_code: { auth: { api_key_secret: anthropic-key } }
store: { backend: postgres, url_secret: db-url }
`;

  it("resolves every secret the configuration names, from the environment and the folder", async () => {
    const cfg = await config(full);
    const resolved = resolveSecrets(cfg, {
      env: {
        ERRAND_SECRET_CHAT_B_URL: "https://chat-b/hook",
        ERRAND_SECRET_GH_TOKEN: "ghp_x",
        ERRAND_SECRET_ANTHROPIC_KEY: "sk-ant-x",
        ERRAND_SECRET_DB_URL: "postgres://db",
      },
    });
    expect(resolved).toEqual({
      "chat-a-token": "from-file",
      "chat-b-url": "https://chat-b/hook",
      "gh-token": "ghp_x",
      "anthropic-key": "sk-ant-x",
      "db-url": "postgres://db",
    });
  });

  it("lists every missing secret at once: its name, the keys naming it, where it was looked for", async () => {
    const cfg = await config(full);
    let error: unknown;
    try {
      resolveSecrets(cfg, { env: { ERRAND_SECRET_GH_TOKEN: "ghp_x" } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SecretNotFoundError);
    const e = error as SecretNotFoundError;
    expect(e.code).toBe("ERR_SECRET_NOT_FOUND");
    expect(e.missing.map((m) => [m.name, m.keys])).toEqual([
      [
        "chat-b-url",
        ["notifications.channels[1].config.webhook_url_secret", "notifications.channels[2].config.token_secret"],
      ],
      ["anthropic-key", ["engines.claude_code.auth.api_key_secret"]],
      ["db-url", ["store.url_secret"]],
    ]);
    expect(e.message).toContain("3 secrets named in the configuration were not found:");
    expect(e.message).toContain(
      `  - store.url_secret: names the secret "db-url", which was not found (looked in: environment variable ERRAND_SECRET_DB_URL (not set); file ${join(dir, "secrets", "db-url")} (not found)); set ERRAND_SECRET_DB_URL, or write the file db-url in the secrets folder (secrets.dir)`,
    );
    expect(e.hint).toContain("secrets.dir");
  });

  it("takes a SecretStore of its own", async () => {
    const cfg = await config("engines:\n  codex: { auth: { api_key_secret: codex-key } }\n");
    const store = {
      resolve: (name: string) => (name === "codex-key" ? "value" : undefined),
      describe: () => ["my vault"],
    };
    expect(resolveSecrets(cfg, store)).toEqual({ "codex-key": "value" });
    expect(() => resolveSecrets(cfg, { resolve: () => undefined, describe: () => ["my vault"] })).toThrow(
      'a secret named in the configuration was not found:\n  - engines.codex.auth.api_key_secret: names the secret "codex-key", which was not found (looked in: my vault); set ERRAND_SECRET_CODEX_KEY, or write the file codex-key in the secrets folder (secrets.dir)',
    );
  });

  it("masks the values for logs and the configuration for printing", async () => {
    const path = join(dir, "masked.yaml");
    writeFileSync(
      path,
      "webhook:\n  secrets: { github: { secret: chat-a-token } }\n  generic: { auth_mode: bearer, secret: { env: G } }\nengines: { codex: {} }\nsecrets: { dir: secrets }\n",
    );
    const { config: cfg, document } = await loadControllerConfig(path, { env: { G: "generic-value" } });
    const values = secretValues(cfg, { other: "other-value" });
    expect(values.sort()).toEqual(["from-file", "generic-value", "other-value"]);
    const mask = createSecretMask(values);
    expect(mask("sent from-file and generic-value, not from-fil")).toBe("sent [redacted] and [redacted], not from-fil");
    // As everywhere secrets are masked (the SDK's secretForms): the longest first, shorter than 4 left alone.
    expect(createSecretMask(["from", "from-file"])("from-file")).toBe("[redacted]");
    expect(createSecretMask(["ab", "abc"])("abcd")).toBe("abcd");
    expect(createSecretMask([])("same")).toBe("same");
    // What config check prints names where each value is, never the value.
    const printed = JSON.stringify(printableConfig(document, cfg));
    expect(printed).not.toContain("from-file");
    expect(printed).not.toContain("generic-value");
    expect(printed).toContain('"secret":"chat-a-token"');
    expect(cfg.webhook.secrets.codehost_a).toBe("from-file");
  });
});
