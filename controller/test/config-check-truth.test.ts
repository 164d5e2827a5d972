import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { tempDir } from "../../test/support/temp-dir.js";
import { runConfigCheck } from "../src/cli/commands/config.js";
import { TEST_CHANNEL } from "./notify/helpers/fixtures.js";

// The built bin, as a user runs it (build first: npm run build -w controller).
const BIN = resolve(import.meta.dirname, "../bin/errand.cjs");

function folder(files: Record<string, string>): string {
  const dir = tempDir("errand-config-truth-");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** The environment without the machine's own ERRAND_SECRET_* variables, plus `extra`. */
function envWith(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("ERRAND_SECRET_"))),
    ...extra,
  };
}

const threeSecrets = `
webhook:
  secrets: { github: { secret: gh-hook } }
notifications:
  channels: [{ backend: chat_a, config: { channel_id: C0123456789, token_secret: chat-a-token } }]
engines:
  agent: { kind: command, command: [/bin/true], auth: { api_key_secret: agent-key } }
guardrails: { allowed_repos: [acme/app] }
store: { path: ${JSON.stringify(join(tempDir("errand-config-truth-db-"), "errand.db"))} }
`;

describe("missing secrets: one list, one format, from config check and from run", () => {
  it("errand config check lists the webhook's missing secret with the channel's and the engine's", async () => {
    const out = await runConfigCheck({ cwd: folder({ "errand.yaml": threeSecrets }), env: envWith(), json: true });
    const report = JSON.parse(out.stdout) as { problems: Array<{ key: string; message: string }> };
    expect(report.problems.map((p) => p.key)).toEqual([
      "webhook.secrets.github",
      "notifications.channels[0].config.token_secret",
      "engines.agent.auth.api_key_secret",
    ]);
    for (const problem of report.problems)
      expect(problem.message).toMatch(/^names the secret "[a-z-]+", which was not found \(looked in: /);
  });

  it("errand run reports the same three lines, and starts nothing", async () => {
    const cwd = folder({ "errand.yaml": threeSecrets });
    const checked = await runConfigCheck({ cwd, env: envWith() });
    const lines = checked.stderr.split("\n").filter((l) => l.includes("names the secret"));
    expect(lines).toHaveLength(3);
    const run = spawnSync(process.execPath, [BIN, "run", "--config", join(cwd, "errand.yaml")], {
      cwd,
      env: envWith(),
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("errand: 3 secrets named in the configuration were not found:");
    for (const line of lines) expect(run.stderr).toContain(`  - ${line.trim()}`);
  });
});

describe("errand config check makes the checks errand run makes", () => {
  it("refuses a chat_a channel_id that is a name, as the channel itself would at start", async () => {
    const text = threeSecrets.replace("channel_id: C0123456789", "channel_id: general");
    const env = envWith({ ERRAND_SECRET_GH_HOOK: "h", ERRAND_SECRET_CHAT_A_TOKEN: "t", ERRAND_SECRET_AGENT_KEY: "k" });
    const out = await runConfigCheck({ cwd: folder({ "errand.yaml": text }), env });
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toContain(
      '  notifications.channels[0].config: chat_a: invalid config: config.channel_id: "general" looks like a channel name, not a channel ID',
    );
  });

  it("starts a plugin channel as run does: a config its Handshake refuses fails the check, one it takes passes", async () => {
    const plugin = `
notifications:
  channels: [{ backend: test_channel, command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(TEST_CHANNEL)}], config: { refuse: REFUSE } }]
engines:
  agent: { kind: command, command: [/bin/true] }
guardrails: { allowed_repos: [acme/app] }
store: { path: ${JSON.stringify(join(tempDir("errand-config-truth-db-"), "errand.db"))} }
`;
    const refused = await runConfigCheck({
      cwd: folder({ "errand.yaml": plugin.replace("REFUSE", "true") }),
      env: envWith(),
    });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/notifications\.channels \(.*test_channel.*\): .*config\.refuse is true/);
    expect(refused.stderr).toContain("remove refuse from the channel's config");
    const taken = await runConfigCheck({
      cwd: folder({ "errand.yaml": plugin.replace("REFUSE", "false") }),
      env: envWith(),
    });
    expect(taken.stderr).toContain("is valid");
    expect(taken.exitCode).toBe(0);
  }, 30_000);

  it("warns, without failing, when an engine's executable is not on PATH", async () => {
    const text = threeSecrets.replace("command: [/bin/true]", "command: [errand-no-such-agent]");
    const env = envWith({ ERRAND_SECRET_GH_HOOK: "h", ERRAND_SECRET_CHAT_A_TOKEN: "t", ERRAND_SECRET_AGENT_KEY: "k" });
    const out = await runConfigCheck({ cwd: folder({ "errand.yaml": text }), env });
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toContain(
      'warning: engines.agent: the executable "errand-no-such-agent" is not on PATH, so its runs would fail to start',
    );
  });
});

describe("errand config check prints the configuration in the file's own keys", () => {
  const rich = `${threeSecrets}
ticketing:
  backend: codehost_a
  poll_interval: 2m
  config: { token_secret: gh-token, owner: acme, repo: app, labels: [agent] }
execution:
  local: { workspace_dir: work }
ops: { shutdown_grace_seconds: 45, leader_lease_seconds: 20 }
secrets: { dir: secrets }
`;
  const env = envWith({
    ERRAND_SECRET_GH_HOOK: "h",
    ERRAND_SECRET_CHAT_A_TOKEN: "t",
    ERRAND_SECRET_AGENT_KEY: "k",
    ERRAND_SECRET_GH_TOKEN: "g",
  });

  it("with its units and absolute paths; written back as errand.yaml it passes the check and prints the same", async () => {
    const cwd = folder({ "errand.yaml": rich });
    const first = await runConfigCheck({ cwd, env });
    expect(first.exitCode, first.stderr).toBe(0);
    const printed = parse(first.stdout);
    expect(printed.ops).toMatchObject({ shutdown_grace_seconds: 45, leader_lease_seconds: 20 });
    expect(printed.webhook.max_body_bytes).toBeGreaterThan(0);
    expect(printed.ticketing.poll_interval).toBe(120);
    expect(printed.execution.local.workspace_dir).toBe(join(cwd, "work"));
    expect(first.stdout).not.toMatch(/Ms\b|Bytes\b|byName/);

    const elsewhere = folder({ "errand.yaml": first.stdout });
    const second = await runConfigCheck({ cwd: elsewhere, env });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
  });

  it("--json prints the same keys", async () => {
    const cwd = folder({ "errand.yaml": rich });
    const json = JSON.parse((await runConfigCheck({ cwd, env, json: true })).stdout) as { config: unknown };
    expect(json.config).toEqual(parse((await runConfigCheck({ cwd, env })).stdout));
  });
});
