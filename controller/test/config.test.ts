import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/support/temp-dir.js";
import { ConfigError, loadWebhookConfig } from "../src/config/index.js";

const dir = tempDir("errand-config-");
let n = 0;
function file(text: string): string {
  const path = join(dir, `c${n++}.yaml`);
  writeFileSync(path, text);
  return path;
}
async function problems(text: string, env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  try {
    await loadWebhookConfig(file(text), { env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe("ERR_INVALID_CONFIG");
    return (error as ConfigError).problems.map((p) => `${p.key}: ${p.message}; ${p.fix}`);
  }
  throw new Error("expected a ConfigError");
}

describe("webhook configuration", () => {
  it("applies the defaults and warns while tracker B has no secret", async () => {
    const { config, warnings } = await loadWebhookConfig(file("webhook:\n  enabled: true\n"), { env: {} });
    expect(config).toMatchObject({ enabled: true, port: 8080, maxBodyBytes: 1048576, secrets: {}, metrics: true });
    expect(config.timeouts).toEqual({
      headersMs: 10000,
      requestMs: 30000,
      keepAliveMs: 5000,
      handlerMs: 8000,
      shutdownMs: 10000,
    });
    expect(warnings.join()).toContain("webhook.secrets.tracker_b");
  });

  it("reads neutral and vendor secret keys, inline, from the environment and from files", async () => {
    writeFileSync(join(dir, "gitlab.secret"), "from-file\n");
    const { config, warnings } = await loadWebhookConfig(
      file(`
other_section: { kept: true }
webhook:
  secrets:
    github: inline-a
    gitlab: { file: gitlab.secret }
    tracker_b: { env: TRACKER_SECRET }
    slack: slack-secret
  shortcut_target_state_id: "500100"
`),
      { env: { TRACKER_SECRET: "from-env" } },
    );
    expect(config.secrets).toEqual({
      codehost_a: "inline-a",
      codehost_b: "from-file",
      tracker_b: "from-env",
      chat_a: "slack-secret",
    });
    expect(config.shortcutTargetStateId).toBe("500100");
    expect(warnings).toEqual([]);
  });

  it("names the key and the fix for every problem, all at once", async () => {
    const found = await problems(`
webhook:
  port: 70000
  secret: { codehost_a: x }
  secrets:
    github: first-secret-value
    codehost_a: second-secret-value
    jira: c
    tracker_b: { env: MISSING_VAR }
    chat_a: { file: /nonexistent/secret }
  max_body_bytes: lots
  path_prefix: /hooks
  shortcut_target_state_id: started
`);
    const text = found.join("\n");
    expect(text).toContain("webhook.port: must be a whole number from 0 to 65535");
    expect(text).toContain("webhook.secret: is not a known key; did you mean webhook.secrets?");
    expect(text).toContain("webhook.secrets.github: and webhook.secrets.codehost_a name the same source");
    expect(text).toContain("webhook.secrets.jira: is not a known source");
    expect(text).toContain(
      "webhook.secrets.tracker_b: refers to the environment variable MISSING_VAR, which is not set; export MISSING_VAR",
    );
    expect(text).toContain(
      "webhook.secrets.chat_a: refers to the file /nonexistent/secret, which cannot be read (ENOENT)",
    );
    expect(text).toContain("webhook.max_body_bytes: must be a whole number");
    expect(text).toContain("webhook.path_prefix: is fixed at /webhooks");
    expect(text).toContain("webhook.shortcut_target_state_id: must be a workflow state id");
    expect(text).not.toContain("first-secret-value");
    expect(text).not.toContain("second-secret-value");
  });

  it("requires the secret of a generic auth_mode and checks the mapping", async () => {
    expect(await problems("webhook:\n  generic:\n    auth_mode: hmac\n")).toEqual([
      "webhook.generic.secret: is required when auth_mode is hmac; set webhook.generic.secret (a value, { secret: NAME }, { env: NAME } or { file: PATH })",
    ]);
    expect((await problems("webhook:\n  generic:\n    auth_mode: basic\n    secret: x\n"))[0]).toContain(
      "use one of hmac, bearer, standard_webhooks, none",
    );
    expect((await problems("webhook:\n  generic:\n    secret: x\n"))[0]).toContain(
      "webhook.generic.auth_mode: is missing although a secret is set",
    );
    expect(
      (await problems("webhook:\n  generic:\n    auth_mode: standard_webhooks\n    secret: plain\n"))[0],
    ).toContain("whsec_");
    const mapping = await problems(`
webhook:
  generic:
    auth_mode: bearer
    secret: s
    field_mapping:
      "a..b": title
      "x.y": summary
      "c": description
      "d": description
`);
    expect(mapping.join("\n")).toContain("webhook.generic.field_mapping.a..b: is not a dot path");
    expect(mapping.join("\n")).toContain('webhook.generic.field_mapping.x.y: maps to "summary"');
    expect(mapping.join("\n")).toContain("webhook.generic.field_mapping.d: maps to description, which c already fills");
    expect(mapping.join("\n")).toContain("webhook.generic.field_mapping: maps no path to id");
  });

  it("warns about an explicit auth_mode none, and refuses a secret that none would never check", async () => {
    const { config, warnings } = await loadWebhookConfig(file("webhook:\n  generic:\n    auth_mode: none\n"), {
      env: {},
    });
    expect(config.generic?.authMode).toBe("none");
    expect(warnings).toContain(
      "webhook.generic has auth_mode none: the generic source accepts unauthenticated requests; set webhook.generic.auth_mode and secret in production",
    );
    expect(await problems("webhook:\n  generic:\n    auth_mode: none\n    secret: s3cret\n")).toEqual([
      "webhook.generic.secret: is set but auth_mode is none, so it would never be checked; set auth_mode to hmac, bearer or standard_webhooks, or remove the secret",
    ]);
  });

  it("tells to quote a secret that YAML read as a number or a boolean", async () => {
    expect(await problems("webhook:\n  secrets:\n    gitlab: 12345678\n")).toEqual([
      'webhook.secrets.gitlab: is the number 12345678, not a string; quote it in the YAML file ("12345678"), or keep it in a secret and write { secret: NAME }',
    ]);
    expect((await problems("webhook:\n  secrets:\n    slack: true\n"))[0]).toContain(
      "is the boolean true, not a string; quote it",
    );
  });

  it("warns about an unauthenticated generic source and the deprecated webhook.shortcut.secret", async () => {
    const { config, warnings } = await loadWebhookConfig(
      file("webhook:\n  generic: {}\n  shortcut:\n    secret: legacy\n"),
      { env: {} },
    );
    expect(config.generic?.authMode).toBe("none");
    expect(config.secrets.tracker_b).toBe("legacy");
    expect(warnings.join("\n")).toContain("unauthenticated");
    expect(warnings.join("\n")).toContain("webhook.shortcut.secret is deprecated");
  });

  it("reports YAML syntax errors with the line, and unreadable files", async () => {
    expect((await problems("webhook:\n  port: [1,\n"))[0]).toMatch(/^\(line \d+\)/);
    await expect(loadWebhookConfig(join(dir, "missing.yaml"))).rejects.toThrow(/cannot be read \(ENOENT\)/);
  });
});
