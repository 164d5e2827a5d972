import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import { tempDir } from "../../test/support/temp-dir.js";
import { didYouMean, editDistance } from "../src/config/did-you-mean.js";
import { ConfigError, formatProblem, loadControllerConfig } from "../src/config/index.js";
import type { TrackerBTicketingConfig } from "../src/sources/ticketing-schema.js";

const dir = tempDir("errand-controller-config-");
let n = 0;
function file(text: string): string {
  const path = join(dir, `c${n++}.yaml`);
  writeFileSync(path, text);
  return path;
}
async function problems(text: string, env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  try {
    await loadControllerConfig(file(text), { env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe("ERR_INVALID_CONFIG");
    return (error as ConfigError).problems.map(formatProblem);
  }
  throw new Error("expected a ConfigError");
}
async function load(text: string, env: NodeJS.ProcessEnv = {}) {
  return loadControllerConfig(file(text), { env });
}

describe("controller configuration: defaults", () => {
  it("without a file: every default, nothing opened, paths under the working folder", async () => {
    const cwd = tempDir("errand-cwd-");
    const { config, warnings } = await loadControllerConfig(undefined, { env: {}, cwd });
    expect(config.file).toBeUndefined();
    expect(config.webhook.enabled).toBe(false);
    expect(config.webhook.allowUnsignedTrackerB).toBe(false);
    expect(config.webhook.secrets).toEqual({});
    expect(config.ticketing).toBeUndefined();
    expect(config.engines).toEqual({ default: "", byName: {} });
    expect(config.notifications).toEqual({
      channels: [],
      callTimeoutMs: 5000,
      unhealthyAfter: 3,
      probeIntervalMs: 30000,
      progressPerMinute: 6,
    });
    expect(config.execution).toEqual({
      backend: "local",
      local: {
        workspaceDir: join(cwd, ".errand/workspaces"),
        logDir: join(cwd, ".errand/logs"),
        logMaxBytes: 10485760,
        killGraceMs: 10000,
        keepWorkspaces: "on_failure",
      },
      kubernetes: undefined,
    });
    expect(config.guardrails).toEqual({
      maxConcurrentJobs: 2,
      maxJobDurationMinutes: 60,
      maxCostPerJob: undefined,
      allowedRepos: [],
      requireApproval: undefined,
      approvers: [],
      approvalTimeoutMs: 86_400_000,
      approvalSigningSecret: undefined,
    });
    expect(config.store).toEqual({ backend: "sqlite", path: join(cwd, ".errand/errand.db") });
    expect(config.ops).toEqual({
      host: "127.0.0.1",
      port: 9090,
      shutdownGraceMs: 30000,
      leaderLeaseMs: 15000,
      logLevel: "info",
    });
    expect(config.secrets).toEqual({ dir: undefined });
    expect(config.pluginsDir).toBeUndefined();
    expect(warnings.join("\n")).toContain("guardrails.allowed_repos is empty");
  });

  it("an empty file, or a file of empty sections, opens nothing either", async () => {
    for (const text of ["", "# only a comment\n", "webhook:\nnotifications:\nengines:\nstore:\n"]) {
      const { config } = await load(text);
      expect(config.webhook.enabled).toBe(false);
      expect(config.store.backend).toBe("sqlite");
      expect(config.store).toEqual({ backend: "sqlite", path: join(dir, ".errand/errand.db") });
    }
  });

  it("reads every section of a full file", async () => {
    mkdirSync(join(dir, "secrets"), { recursive: true });
    writeFileSync(join(dir, "secrets", "generic-signing"), "generic-signing-value\n");
    writeFileSync(join(dir, "prompt.md"), "Fix {{title}}\n");
    const { config, warnings } = await load(`
webhook:
  port: 8088
  generic:
    auth_mode: hmac
    secret: { secret: generic-signing }
notifications:
  channels:
    - backend: chat_a
      config: { channel_id: C123, token_secret: chat-a-token }
    - backend: chat_a
      config: { channel_id: C456, token_secret: chat-a-token, nested: { list: [{ extra_secret: OTHER_TOKEN }] } }
    - backend: chat_b
      name: alerts
      command: [node, ./my-channel.js]
      config: { webhook_url_secret: chat-b-url }
  call_timeout_ms: 2000
plugins: { dir: ./plugins }
ticketing:
  backend: tracker_a
  poll_interval: 2m
  config:
    token_secret: tracker-a-token
    team_id: 9cfb482a-81e3-4154-b5b9-2c805e70a02d
    labels: [agent]
    state_filter: Todo
engines:
  default: agent
  agent:
    kind: command
    command: [./agent.sh, --fast]
    prompt_via: file
    prompt: { template_file: prompt.md }
    env: { LOG_FORMAT: json }
  claude_code:
    auth: { api_key_secret: anthropic-api-key }
    model: sonnet
execution:
  local: { workspace_dir: /tmp/ws, keep_workspaces: always }
guardrails:
  max_concurrent_jobs: 4
  max_cost_per_job: 2.5
  allowed_repos: ["https://github.com/acme/*"]
store: { path: data/errand.db }
ops: { port: 0, shutdown_grace_seconds: 5, log_level: debug }
secrets: { dir: secrets }
`);
    expect(warnings).toEqual([]);
    expect(config.webhook).toMatchObject({
      enabled: true,
      port: 8088,
      generic: { authMode: "hmac", secret: "generic-signing-value" },
    });
    expect(config.notifications.channels.map((c) => [c.label, c.index, c.secretNames])).toEqual([
      ["chat_a", 0, ["chat-a-token"]],
      ["chat_a#2", 1, ["chat-a-token", "OTHER_TOKEN"]],
      ["alerts", 2, ["chat-b-url"]],
    ]);
    expect(config.notifications.channels[2]?.command).toEqual(["node", "./my-channel.js"]);
    expect(config.notifications.callTimeoutMs).toBe(2000);
    expect(config.pluginsDir).toBe(join(dir, "plugins"));
    expect(config.ticketing).toMatchObject({
      backend: "tracker_a",
      pollIntervalMs: 120000,
      tokenSecret: "tracker-a-token",
      config: { labels: ["agent"], exclude_labels: [] },
    });
    // Tracker A's labels are not code host A's: the code host A webhook takes every issue.
    expect(config.webhook.codehostARules).toBeUndefined();
    expect(config.engines.default).toBe("agent");
    expect(config.engines.byName.agent).toMatchObject({
      kind: "command",
      command: [join(dir, "agent.sh"), "--fast"],
      promptVia: "file",
      promptTemplate: "Fix {{title}}\n",
      env: { LOG_FORMAT: "json" },
      authMethod: "none",
    });
    expect(config.engines.byName.claude_code).toMatchObject({
      kind: "claude_code",
      authMethod: "api_key",
      apiKeySecret: "anthropic-api-key",
      model: "sonnet",
      promptVia: "stdin",
    });
    expect(config.execution.local).toMatchObject({
      workspaceDir: "/tmp/ws",
      logDir: join(dir, ".errand/logs"),
      keepWorkspaces: "always",
    });
    expect(config.guardrails).toEqual({
      maxConcurrentJobs: 4,
      maxJobDurationMinutes: 60,
      maxCostPerJob: 2.5,
      allowedRepos: ["https://github.com/acme/*"],
      requireApproval: undefined,
      approvers: [],
      approvalTimeoutMs: 86_400_000,
      approvalSigningSecret: undefined,
    });
    expect(config.store).toEqual({ backend: "sqlite", path: join(dir, "data/errand.db") });
    expect(config.ops).toEqual({
      host: "127.0.0.1",
      port: 0,
      shutdownGraceMs: 5000,
      leaderLeaseMs: 15000,
      logLevel: "debug",
    });
    expect(config.secrets.dir).toBe(join(dir, "secrets"));
  });

  it("takes the only engine as the default, and a preset's name as its kind", async () => {
    const { config } = await load("engines:\n  codex: {}\n");
    expect(config.engines.default).toBe("codex");
    expect(config.engines.byName.codex).toMatchObject({
      kind: "codex",
      args: [],
      authMethod: "none",
      env: {},
      command: undefined,
    });
  });

  it("gives the webhook code host A's issue label rules when ticketing polls codehost_a", async () => {
    const { config } = await load(
      "engines: { codex: {} }\nticketing:\n  backend: codehost_a\n  config: { token_secret: gh-token, owner: acme, repo: app, labels: [agent], exclude_labels: [wontfix] }\n",
    );
    expect(config.webhook.codehostARules).toEqual({
      labels: ["agent"],
      exclude_labels: ["wontfix"],
      in_progress_label: "agent-in-progress",
      failed_label: "agent-failed",
    });
  });

  it("accepts poll intervals as seconds or durations", async () => {
    const base =
      "engines: { codex: {} }\nticketing:\n  backend: codehost_a\n  config: { token_secret: gh-token, owner: acme, repo: app }\n";
    expect((await load(base)).config.ticketing?.pollIntervalMs).toBe(30000);
    expect((await load(`${base}  poll_interval: 45\n`)).config.ticketing?.pollIntervalMs).toBe(45000);
    expect((await load(`${base}  poll_interval: 1h30m\n`)).config.ticketing?.pollIntervalMs).toBe(5400000);
    expect((await problems(`${base}  poll_interval: soon\n`))[0]).toContain(
      "ticketing.poll_interval (line 5): must be a number of seconds or a duration",
    );
    expect((await problems(`${base}  poll_interval: 0s\n`))[0]).toContain("must be from 1 to 86400 seconds");
  });

  it("reads a postgres store", async () => {
    const { config } = await load("store:\n  backend: postgres\n  url_secret: errand-db-url\n");
    expect(config.store).toEqual({ backend: "postgres", urlSecret: "errand-db-url" });
  });
});

describe("controller configuration: problems", () => {
  it("names an unknown key anywhere with its line and the nearest known key", async () => {
    const found = await problems(
      "webhok:\n  port: 1\nengines:\n  x:\n    kind: command\n    command: [a]\n    comand: [b]\nstore:\n  pth: a.db\n",
    );
    expect(found).toContain(
      "webhok (line 1): is not a known key; did you mean webhook? Known keys: webhook, notifications, ticketing, engines, execution, guardrails, repositories, store, ops, console, plugins, secrets",
    );
    expect(
      found.some((p) => p.startsWith("engines.x.comand (line 7): is not a known key; did you mean engines.x.command?")),
    ).toBe(true);
    expect(found.some((p) => p.startsWith("store.pth (line 9): is not a known key; did you mean store.path?"))).toBe(
      true,
    );
  });

  it("suggests by edit distance, swaps and prefixes, and not beyond", () => {
    expect(editDistance("webhok", "webhook")).toBe(1);
    expect(editDistance("prot", "port")).toBe(1);
    expect(editDistance("Port", "port")).toBe(0.5);
    expect(didYouMean("prot", ["host", "port"])).toBe("port");
    expect(didYouMean("notification", ["notifications", "ops"])).toBe("notifications");
    expect(didYouMean("url", ["path", "url_secret"])).toBe("url_secret");
    expect(didYouMean("colour", ["host", "port"])).toBeUndefined();
    expect(didYouMean("ab", ["abc"])).toBe("abc");
    expect(didYouMean("x", ["port"])).toBeUndefined();
  });

  it("gives no suggestion for a key that is nothing like a known one", async () => {
    const [problem] = await problems("ops:\n  colour: blue\n");
    expect(problem).toBe(
      "ops.colour (line 2): is not a known key; known keys: host, port, shutdown_grace_seconds, leader_lease_seconds, log_level",
    );
  });

  it("reports every problem of every section at once", async () => {
    const found = await problems(`
webhook:
  port: -1
notifications:
  channels:
    - backend: chat_a
      config: { token_secret: xoxb-1234-5678-abcdef }
    - config: {}
  call_timeout_ms: 9000
ticketing:
  backend: tracker_a
  config:
    token_secret: linear-token
    team_id: Engineering
engines:
  default: missing
  mine: { command: [x] }
execution:
  backend: docker
guardrails:
  max_concurrent_jobs: 0
  max_cost_per_job: -3
  allowed_repos: acme/app
store:
  backend: postgres
ops:
  log_level: loud
  port: "9090"
`);
    const text = found.join("\n");
    expect(text).toContain("webhook.port (line 3): must be a whole number from 0 to 65535, got -1");
    expect(text).toContain(
      "notifications.channels[0].config.token_secret (line 7): looks like a chat bot token, not like the name of a secret; put the value in a secret",
    );
    expect(text).toContain("notifications.channels[1].backend (line 8): is required");
    expect(text).toContain("notifications.call_timeout_ms (line 9): must be a whole number from 100 to 5000, got 9000");
    expect(text).toContain(
      "ticketing.config.team_id (line 14): \"Engineering\" is not a team UUID (it looks like the team's name); use the team's id, a UUID",
    );
    expect(text).toContain(
      "engines.mine.kind (line 17): is required (mine is not a preset's name); write kind: command",
    );
    expect(text).toContain(
      'engines.default (line 16): names "missing", which is not an entry under engines; use one of mine',
    );
    expect(text).toContain('execution.backend (line 19): is "docker"; use one of local, kubernetes');
    expect(text).toContain("guardrails.max_concurrent_jobs (line 21): must be a whole number from 1 to 256, got 0");
    expect(text).toContain("guardrails.max_cost_per_job (line 22): must be a number above 0, got -3");
    expect(text).toContain('guardrails.allowed_repos (line 23): must be a list of strings, got "acme/app"');
    expect(text).toContain("store.url_secret (line 24): is required when backend is postgres");
    expect(text).toContain('ops.log_level (line 27): is "loud"; use one of debug, info, warn, error');
    expect(await problems("ops:\n  log_level: warning\n")).toEqual([
      'ops.log_level (line 2): is "warning"; did you mean warn? Or use one of debug, info, warn, error',
    ]);
    expect(text).toContain('ops.port (line 28): must be a whole number from 0 to 65535, got "9090"');
    expect(text).not.toContain("xoxb-1234");
  });

  it("refuses a document that is not a mapping, and sections that are not mappings", async () => {
    expect(await problems("- a\n- b\n")).toEqual([
      "(top level): is not a mapping; start the file with top-level keys such as webhook: and engines:",
    ]);
    const found = await problems("ops: 5\nnotifications:\n  channels: chat_a\n");
    expect(found).toContain(
      "ops (line 1): must be a mapping of keys to values; write the key followed by indented keys below it",
    );
    expect(found).toContain(
      "notifications.channels (line 3): must be a list of channels; write channels: with one '- backend: ...' entry per channel",
    );
  });

  it("refuses allowed_repos entries that can never match", async () => {
    expect(
      await problems(
        "guardrails:\n  allowed_repos: [acme/app, 'https://github.com/', 'git://github.com/acme/app', github.com/acme/../x]\n",
      ),
    ).toEqual([
      "guardrails.allowed_repos[1] (line 2): names no repository (write owner/repo, host/owner/repo or a URL); e.g. acme/app, github.com/acme/* or https://github.com/acme/app",
      "guardrails.allowed_repos[2] (line 2): uses the scheme git, which repo_url may not (write https://, http://, ssh:// or no scheme); e.g. acme/app, github.com/acme/* or https://github.com/acme/app",
      'guardrails.allowed_repos[3] (line 2): has the path segment "..", which no accepted repo_url has (letters, digits, . _ - and the globs * ** ?); e.g. acme/app, github.com/acme/* or https://github.com/acme/app',
    ]);
  });

  it("says that an empty value is empty", async () => {
    expect(await problems("ops:\n  port:\n")).toEqual([
      "ops.port (line 2): is empty; write a number such as 9090 (the default), or remove the key",
    ]);
  });

  it("labels repeated channels and refuses two entries with one name, naming both", async () => {
    const found = await problems(
      "notifications:\n  channels:\n    - { backend: chat_a, name: team }\n    - { backend: chat_b, name: team }\n    - { backend: chat_b }\n    - { backend: chat_b, name: chat_b }\n    - { backend: x, name: 'a#2' }\n",
    );
    expect(found).toContain(
      'notifications.channels[1].name (line 4): gives the label "team", which notifications.channels[0] already has; give notifications.channels[0] and notifications.channels[1] different names',
    );
    expect(found).toContain(
      'notifications.channels[3].name (line 6): gives the label "chat_b", which notifications.channels[2] already has; give notifications.channels[2] and notifications.channels[3] different names',
    );
    expect(found.some((p) => p.startsWith('notifications.channels[4].name (line 7): "a#2" is not valid here'))).toBe(
      true,
    );
  });

  it("refuses token-looking values and malformed names in any *_secret key of a channel", async () => {
    const found = await problems(`
notifications:
  channels:
    - backend: chat_b
      config:
        webhook_url_secret: https://chat.example/api/webhooks/1/abc
        deep: { other_secret: 12 }
        list: [{ third_secret: "bad name" }]
        fourth_secret: ghp_abcdefghijklmnopqrstuvwxyz0123456789
        fifth_secret: Zq8vN3kLx72PbR5tYw9cJd4Fh6Gm1Sa0
`);
    expect(found).toEqual([
      expect.stringContaining(
        "notifications.channels[0].config.webhook_url_secret (line 6): looks like a URL (which may carry a credential), not like the name of a secret; put the value in a secret",
      ),
      expect.stringContaining(
        "notifications.channels[0].config.deep.other_secret (line 7): must be the name of a secret, got 12",
      ),
      expect.stringContaining(
        'notifications.channels[0].config.list[0].third_secret (line 8): "bad name" is not a secret name',
      ),
      expect.stringContaining(
        "notifications.channels[0].config.fourth_secret (line 9): looks like a code host access token",
      ),
      expect.stringContaining("notifications.channels[0].config.fifth_secret (line 10): looks like a random token"),
    ]);
    expect(found.join("\n")).not.toContain("Zq8vN3kLx72");
  });

  it("refuses tokens in engines' api_key_secret, ticketing's token_secret and store's url_secret", async () => {
    const found = await problems(`
ticketing:
  backend: codehost_a
  config: { token_secret: github_pat_11ABCDEFG0123456789, owner: acme, repo: app }
engines:
  claude_code: { auth: { api_key_secret: sk-ant-api03-abcdef } }
store: { backend: postgres, url_secret: "postgres://user:pw@db/errand" }
`);
    expect(found.map((p) => p.split(":")[0])).toEqual([
      "ticketing.config.token_secret (line 4)",
      "engines.claude_code.auth.api_key_secret (line 6)",
      "store.url_secret (line 7)",
    ]);
    expect(found[1]).toContain("looks like an Anthropic API key");
  });

  it("checks the engines' settings", async () => {
    const found = await problems(`
engines:
  default: cmd
  cmd: { kind: command }
  claude_code:
    prompt_via: file
    auth: { method: api_key }
    prompt: { template: a, template_file: b }
    env: { ANTHROPIC_API_KEY: x, ERRAND_RESULT_FILE: y, GH_TOKEN: z, MODE: "sk-ant-api03-xyz", "1BAD": v, OK: fine }
  codex: { auth: { method: none, api_key_secret: codex-key } }
  Bad_Name: { kind: aider }
  gemini: { prompt: { template_file: missing.md } }
`);
    const text = found.join("\n");
    expect(text).toContain("engines.cmd.command (line 4): is required for a command engine");
    expect(text).toContain(
      "engines.claude_code.prompt_via (line 6): applies to command engines only (this one is claude_code)",
    );
    expect(text).toContain("engines.claude_code.auth.api_key_secret (line 7): is required when method is api_key");
    expect(text).toContain("engines.claude_code.prompt.template_file (line 8): is set beside template");
    expect(text).toContain(
      "engines.claude_code.env.ANTHROPIC_API_KEY (line 9): looks like a credential; keep credentials in a secret and name it in auth.api_key_secret",
    );
    expect(text).toContain("engines.claude_code.env.ERRAND_RESULT_FILE (line 9): is reserved");
    expect(text).toContain("engines.claude_code.env.GH_TOKEN (line 9): looks like a credential");
    expect(text).toContain("engines.claude_code.env.MODE (line 9): has a value that looks like an Anthropic API key");
    expect(text).toContain("engines.claude_code.env.1BAD (line 9): is not an environment variable name");
    expect(text).not.toContain("env.OK");
    expect(text).toContain("engines.codex.auth.api_key_secret (line 10): is set but method is none");
    expect(text).toContain("engines.Bad_Name (line 11): is not a valid engine name");
    expect(text).toContain(
      `engines.gemini.prompt.template_file (line 12): refers to the file ${join(dir, "missing.md")}, which cannot be read (ENOENT)`,
    );
    expect(text).not.toContain("sk-ant-api03-xyz");
  });

  it("requires an engine once tickets can arrive, and one default among several", async () => {
    expect(await problems("webhook:\n  generic: { auth_mode: none }\nengines:\n")).toEqual([
      "engines (line 3): has no engine, but tickets can arrive (from the webhook); add an engine, e.g. engines: { claude_code: { auth: { api_key_secret: anthropic-api-key } } } or a command engine",
    ]);
    expect(await problems("engines:\n  codex: {}\n  aider: {}\n")).toEqual([
      "engines.default (line 1): is required when there is more than one engine; name one of codex, aider",
    ]);
  });

  it("checks the shapes of each ticketing backend", async () => {
    expect((await problems("ticketing:\n  backend: jira\n"))[0]).toBe(
      'ticketing.backend (line 2): is "jira"; use one of tracker_a, tracker_b, codehost_a',
    );
    expect((await problems("ticketing:\n  poll_interval: 5\n"))[0]).toContain(
      "ticketing.backend (line 1): is required; write backend: with one of tracker_a, tracker_b, codehost_a",
    );
    const b = await problems(
      "engines: { codex: {} }\nticketing:\n  backend: tracker_b\n  config:\n    token_secret: sc-token\n    owner_mention_name: bot\n    workflow_state_name: Ready\n    workflows: [{ trigger_state: Ready, in_progress_state: Doing }]\n",
    );
    expect(b).toEqual([
      "ticketing.config.workflows (line 8): is set beside workflow_state_name / in_progress_state_name; use either workflows[] or the two single names",
    ]);
    const missing = await problems(
      "engines: { codex: {} }\nticketing:\n  backend: tracker_b\n  config: { token_secret: sc-token, owner_mention_name: bot }\n",
    );
    expect(missing.map((p) => p.split(":")[0])).toEqual([
      "ticketing.config.workflow_state_name (line 4)",
      "ticketing.config.in_progress_state_name (line 4)",
    ]);
    const c = await problems(
      "engines: { codex: {} }\nticketing:\n  backend: codehost_a\n  config: { token_secret: gh-token, owner: acme, labels: agent, teamid: x }\n",
    );
    expect(c.map((p) => p.split(";")[0])).toEqual([
      'ticketing.config.labels (line 4): must be a list of strings, got "agent"',
      "ticketing.config.repo (line 4): is required",
      "ticketing.config.teamid (line 4): is not a known key",
    ]);
    const ok = await load(
      "engines: { codex: {} }\nticketing:\n  backend: tracker_b\n  config:\n    token_secret: sc-token\n    owner_mention_name: bot\n    workflows: [{ trigger_state: Ready, in_progress_state: Doing }]\n",
    );
    const ticketing = ok.config.ticketing;
    expect(ticketing?.backend).toBe("tracker_b");
    if (ticketing?.backend !== "tracker_b") return;
    // `config` is typed by backend: no cast between the file and the tracker B adapter.
    expectTypeOf(ticketing.config).toEqualTypeOf<TrackerBTicketingConfig>();
    expect(ticketing.config.workflows).toEqual([{ trigger_state: "Ready", in_progress_state: "Doing" }]);
  });

  it("reports YAML syntax errors and duplicate keys with their line", async () => {
    expect((await problems("ops:\n  port: 1\n  port: 2\n"))[0]).toMatch(/^\(line 3\): Map keys must be unique/);
  });
});

describe("controller configuration: no open doors", () => {
  it("serves the tracker B route unsigned only with webhook.tracker_b.allow_unsigned: true", async () => {
    const off = await load("webhook:\n  enabled: true\nengines: { codex: {} }\n");
    expect(off.config.webhook.allowUnsignedTrackerB).toBe(false);
    expect(off.config.webhook.secrets.tracker_b).toBeUndefined();
    expect(off.warnings.join("\n")).toContain("no source is configured");
    const on = await load("webhook:\n  tracker_b: { allow_unsigned: true }\nengines: { codex: {} }\n");
    expect(on.config.webhook).toMatchObject({ enabled: true, allowUnsignedTrackerB: true });
    expect(on.warnings.join("\n")).toContain("webhook.tracker_b.allow_unsigned is true");
  });

  it("refuses a tracker B filter without a secret, and allow_unsigned beside a secret", async () => {
    expect(await problems("webhook:\n  shortcut_target_state_id: 500\n")).toEqual([
      "webhook.shortcut_target_state_id (line 2): filters the tracker B route, which is not served: it has no secret; set webhook.secrets.tracker_b or webhook.tracker_b.allow_unsigned: true",
    ]);
    expect(
      await problems(
        "webhook:\n  secrets: { tracker_b: { env: T } }\n  tracker_b: { allow_unsigned: true }\nengines: { codex: {} }\n",
        { T: "t" },
      ),
    ).toEqual([
      "webhook.tracker_b.allow_unsigned (line 3): is true although webhook.secrets.tracker_b is set, so requests are checked anyway; remove allow_unsigned (the secret is checked), or remove the secret",
    ]);
  });

  it("does not open a misspelled allow_unsigned", async () => {
    expect(await problems("webhook:\n  tracker_b: { allow_unsigend: true }\n")).toEqual([
      "webhook.tracker_b.allow_unsigend (line 2): is not a known key; did you mean webhook.tracker_b.allow_unsigned? Known keys: allow_unsigned",
    ]);
    expect((await problems("webhook:\n  tracker_b: { allow_unsigned: yes }\n"))[0]).toContain(
      'webhook.tracker_b.allow_unsigned (line 2): must be true or false, got "yes"',
    );
  });

  it("requires an explicit auth_mode for the generic source", async () => {
    expect(await problems("webhook:\n  generic: {}\nengines: { codex: {} }\n")).toEqual([
      "webhook.generic.auth_mode (line 2): is missing, so the generic source would accept unauthenticated requests; set auth_mode to hmac, bearer or standard_webhooks with a secret, or to none to accept unauthenticated requests on purpose",
    ]);
    const none = await load("webhook:\n  generic: { auth_mode: none }\nengines: { codex: {} }\n");
    expect(none.config.webhook.enabled).toBe(true);
    expect(none.warnings.join("\n")).toContain("auth_mode none");
  });

  it("resolves { secret: NAME } from the secret store, and warns about inline secrets", async () => {
    const { config, warnings } = await load(
      "webhook:\n  secrets:\n    github: { secret: gh-hook }\n    gitlab: inline-value\nengines: { codex: {} }\n",
      {
        ERRAND_SECRET_GH_HOOK: "from-store",
      },
    );
    expect(config.webhook.secrets).toEqual({ codehost_a: "from-store", codehost_b: "inline-value" });
    expect(warnings.join("\n")).toContain("webhook.secrets.gitlab is written in the file itself");
    const [missing] = await problems("webhook:\n  secrets:\n    github: { secret: gh-hook }\n");
    expect(missing).toBe(
      'webhook.secrets.github (line 3): names the secret "gh-hook", which was not found (looked in: environment variable ERRAND_SECRET_GH_HOOK (not set); no secrets folder (secrets.dir is not set)); set ERRAND_SECRET_GH_HOOK, or write the file gh-hook in the secrets folder (secrets.dir)',
    );
    expect((await problems("webhook:\n  secrets:\n    github: { secret: gh-hook, env: X }\n"))[0]).toContain(
      "must have exactly one of secret, env, file (has 2)",
    );
  });
});
