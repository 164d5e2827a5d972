import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { tempDir } from "../../test/support/temp-dir.js";
import { runConfigCheck, runConfigSchema } from "../src/cli/commands/config.js";
import { createConfigCommand } from "../src/cli/commands/config-command.js";
import { controllerConfigJsonSchema } from "../src/config/index.js";

function folder(files: Record<string, string>): string {
  const dir = tempDir("errand-config-cmd-");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const good = `
webhook:
  secrets: { github: { secret: gh-hook } }
notifications:
  channels: [{ backend: chat_a, config: { channel_id: C0123456789, token_secret: chat-a-token } }]
engines:
  claude_code: { auth: { api_key_secret: anthropic-key } }
guardrails: { allowed_repos: [acme/app] }
`;
const env = {
  ERRAND_SECRET_GH_HOOK: "hook-signing-value",
  ERRAND_SECRET_CHAT_A_TOKEN: "xoxb-real-token",
  ERRAND_SECRET_ANTHROPIC_KEY: "sk-ant-real",
};

describe("errand config check", () => {
  it("prints the resolved configuration as YAML with secret values masked, and exits 0", async () => {
    const cwd = folder({ "errand.yaml": good });
    const out = await runConfigCheck({ cwd, env });
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toContain(`errand: ${join(cwd, "errand.yaml")} is valid\n`);
    const printed = parse(out.stdout);
    // A reference names where the secret is, not its value: it stays as written.
    expect(printed.webhook.secrets).toEqual({ github: { secret: "gh-hook" } });
    expect(printed.engines.claude_code.auth.api_key_secret).toBe("anthropic-key");
    expect(printed.store.path).toBe(join(cwd, ".errand/errand.db"));
    for (const value of Object.values(env)) expect(out.stdout + out.stderr).not.toContain(value);
  });

  it("lists every problem on stderr with its fix, missing secrets included, and exits 1", async () => {
    const cwd = folder({ "mine.yaml": `${good}ops:\n  prot: 1\n` });
    const out = await runConfigCheck({ cwd, config: "mine.yaml", env: {} });
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe("");
    const lines = out.stderr.trimEnd().split("\n");
    expect(lines[0]).toBe(`errand: 2 problems in ${join(cwd, "mine.yaml")}:`);
    expect(lines[1]).toContain('webhook.secrets.github (line 3): names the secret "gh-hook", which was not found');
    expect(lines[2]).toBe(
      "  ops.prot (line 10): is not a known key; did you mean ops.port? Known keys: host, port, shutdown_grace_seconds, leader_lease_seconds, log_level",
    );
  });

  it("reports the named secrets it cannot find, each with the key naming it and the places searched", async () => {
    const cwd = folder({ "errand.yaml": good });
    const out = await runConfigCheck({ cwd, env: { ERRAND_SECRET_GH_HOOK: "x" } });
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toContain("errand: 2 problems in");
    expect(out.stderr).toContain(
      '  notifications.channels[0].config.token_secret: names the secret "chat-a-token", which was not found (looked in: environment variable ERRAND_SECRET_CHAT_A_TOKEN (not set); no secrets folder (secrets.dir is not set)); set ERRAND_SECRET_CHAT_A_TOKEN, or write the file chat-a-token in the secrets folder (secrets.dir)',
    );
    expect(out.stderr).toContain('  engines.claude_code.auth.api_key_secret: names the secret "anthropic-key"');
  });

  it("--json prints one object, also when there are problems", async () => {
    const cwd = folder({ "errand.yaml": good, "bad.yaml": "webhok: {}\n" });
    const ok = JSON.parse((await runConfigCheck({ cwd, env, json: true })).stdout);
    expect(ok).toMatchObject({ ok: true, file: join(cwd, "errand.yaml"), problems: [] });
    expect(ok.config.webhook.secrets.github).toEqual({ secret: "gh-hook" });
    const bad = await runConfigCheck({ cwd, env, json: true, config: "bad.yaml" });
    expect(bad.exitCode).toBe(1);
    expect(JSON.parse(bad.stdout)).toEqual({
      ok: false,
      file: join(cwd, "bad.yaml"),
      config: null,
      warnings: [],
      problems: [
        {
          key: "webhok",
          line: 1,
          message: "is not a known key",
          fix: expect.stringContaining("did you mean webhook?"),
        },
      ],
    });
  });

  it("without --config and without errand.yaml, checks the embedded defaults and shows the warnings", async () => {
    const cwd = folder({});
    const out = await runConfigCheck({ cwd, env: {} });
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toContain("warning: guardrails.allowed_repos is empty");
    expect(out.stderr).toContain("errand: the embedded defaults (no --config and no errand.yaml here) is valid");
    expect(parse(out.stdout).webhook.enabled).toBe(false);
  });

  it("says when the file cannot be read", async () => {
    const out = await runConfigCheck({ cwd: folder({}), config: "nope.yaml", env: {} });
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toContain("(file): cannot be read (ENOENT); check the path given to --config");
  });
});

describe("errand config schema", () => {
  it("prints the JSON Schema", () => {
    const out = runConfigSchema();
    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual(controllerConfigJsonSchema());
  });

  it("is a command with check and schema", () => {
    const command = createConfigCommand();
    expect(command.name()).toBe("config");
    expect(command.commands.map((c) => c.name())).toEqual(["check", "schema"]);
    expect(command.commands[0]?.options.map((o) => o.long)).toEqual(["--config", "--json"]);
  });
});
