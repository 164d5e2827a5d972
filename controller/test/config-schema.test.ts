import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { tempDir } from "../../test/support/temp-dir.js";
import { REFERENCE_BEGIN, REFERENCE_END, renderConfigReference } from "../src/config/config-reference.js";
import { controllerConfigJsonSchema, loadControllerConfig } from "../src/config/index.js";
import { resolveSecrets } from "../src/secrets/index.js";

const docsFile = new URL("../../docs/configuration.md", import.meta.url);
const docs = readFileSync(docsFile, "utf8");
const ajv = new Ajv2020({ allErrors: true });
// The schema says `format: uri` for URL keys (api_base_url, repo_url); ajv checks formats only with ajv-formats.
(await import("ajv-formats")).default.default(ajv);
const validate = ajv.compile(controllerConfigJsonSchema());

/** The YAML block under "## An example" in docs/configuration.md. */
function docsExample(): string {
  const section = docs.slice(docs.indexOf("## An example"));
  const match = /```yaml\n([\s\S]*?)```/.exec(section);
  if (match?.[1] === undefined) throw new Error("docs/configuration.md has no example block");
  return match[1];
}

function errorsOf(text: string): string[] {
  return validate(parse(text) ?? {}) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe("JSON Schema of errand.yaml", () => {
  it("is draft 2020-12 and compiles in strict mode", () => {
    const schema = controllerConfigJsonSchema();
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties as object)).toEqual([
      "webhook",
      "notifications",
      "ticketing",
      "engines",
      "execution",
      "guardrails",
      "repositories",
      "store",
      "ops",
      "console",
      "plugins",
      "secrets",
    ]);
  });

  it("accepts good files: the docs' example, empty sections, each ticketing backend", () => {
    for (const text of [
      docsExample(),
      "{}",
      "webhook:\nnotifications:\n",
      "ticketing:\n  backend: tracker_a\n  poll_interval: 2m\n  config: { token_secret: t, team_id: 9cfb482a-81e3-4154-b5b9-2c805e70a02d }\n",
      "ticketing:\n  backend: tracker_b\n  config: { token_secret: t, owner_mention_name: bot, workflows: [{ trigger_state: A, in_progress_state: B }] }\n",
      "ticketing:\n  backend: codehost_a\n  poll_interval: 60\n  config: { token_secret: t, owner: acme, repo: app }\n",
      "engines:\n  codex: {}\n  x: { kind: command, command: [a], env: { MODE: fast } }\n",
      'webhook:\n  secrets: { gitlab: inline, github: { env: X }, slack: { file: s.txt }, tracker_b: { secret: tb } }\n  shortcut_target_state_id: "500"\n',
    ]) {
      expect(errorsOf(text), text).toEqual([]);
    }
  });

  it("rejects bad files: unknown keys, wrong types, bad choices, bad secret names, missing required keys", () => {
    expect(errorsOf("webhok: {}\n")).toEqual([" must NOT have additional properties"]);
    expect(errorsOf("webhook: { port: '8080' }\n")).toContain("/webhook/port must be integer");
    expect(errorsOf("webhook: { port: 70000 }\n")).toContain("/webhook/port must be <= 65535");
    expect(errorsOf("execution: { backend: docker }\n")).toContain(
      "/execution/backend must be equal to one of the allowed values",
    );
    expect(errorsOf("engines: { codex: { auth: { api_key_secret: 'has space' } } }\n")).toContain(
      '/engines/codex/auth/api_key_secret must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,252}$"',
    );
    expect(errorsOf("notifications: { channels: [{ backend: chat_a, config: { token_secret: 'a b' } }] }\n")).toContain(
      '/notifications/channels/0/config/token_secret must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,252}$"',
    );
    expect(errorsOf("notifications: { channels: [{ config: {} }] }\n")).toContain(
      "/notifications/channels/0 must have required property 'backend'",
    );
    expect(errorsOf("ticketing: { backend: jira, config: {} }\n").length).toBeGreaterThan(0);
    expect(
      errorsOf("ticketing: { backend: codehost_a, config: { token_secret: t, owner: acme } }\n").length,
    ).toBeGreaterThan(0);
    expect(errorsOf("guardrails: { max_cost_per_job: 0 }\n")).toContain("/guardrails/max_cost_per_job must be > 0");
    expect(errorsOf("webhook: { path_prefix: /hooks }\n")).toContain("/webhook/path_prefix must be equal to constant");
  });

  it("describes every key", () => {
    const missing: string[] = [];
    const visit = (node: Record<string, unknown>, key: string) => {
      for (const [name, raw] of Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        const options = (raw.anyOf as Array<Record<string, unknown>> | undefined)?.filter((o) => o.type !== "null") ?? [
          raw,
        ];
        if (raw.description === undefined && options.every((o) => o.description === undefined))
          missing.push(`${key}.${name}`);
        for (const option of options) visit(option, `${key}.${name}`);
        if (Array.isArray(raw.oneOf))
          for (const branch of raw.oneOf) visit(branch as Record<string, unknown>, `${key}.${name}`);
      }
      for (const branch of (node.oneOf ?? []) as Array<Record<string, unknown>>) visit(branch, key);
    };
    visit(controllerConfigJsonSchema(), "");
    // The ticketing branches' own keys (backend, poll_interval, config) are described once on the union.
    expect(missing.filter((k) => !/^\.ticketing\.(config|backend)$/.test(k))).toEqual([]);
  });
});

describe("docs/configuration.md", () => {
  it("holds the reference generated from the schema", () => {
    const begin = docs.indexOf(REFERENCE_BEGIN);
    const end = docs.indexOf(REFERENCE_END);
    expect(begin, "the generated reference markers are missing").toBeGreaterThan(-1);
    const committed = docs.slice(begin + REFERENCE_BEGIN.length, end).trim();
    expect(
      committed,
      "docs/configuration.md is out of date: npm run build -w @errand/controller && node controller/scripts/gen-config-docs.mjs",
    ).toBe(renderConfigReference().trim());
  });

  it("has an example the controller loads, with every secret it names found in the environment", async () => {
    const dir = tempDir("errand-docs-example-");
    const path = join(dir, "errand.yaml");
    writeFileSync(path, docsExample());
    const env: NodeJS.ProcessEnv = {};
    for (const name of [
      "generic-signing",
      "github-webhook",
      "chat-a-token",
      "chat-b-webhook-url",
      "anthropic-api-key",
    ]) {
      env[`ERRAND_SECRET_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`] = `value-of-${name}`;
    }
    const { config, warnings } = await loadControllerConfig(path, { env });
    expect(warnings).toEqual([]);
    expect(config.engines.default).toBe("claude_code");
    expect(config.notifications.channels.map((c) => c.label)).toEqual(["chat_a", "team-alerts"]);
    expect(Object.keys(resolveSecrets(config, { env })).sort()).toEqual([
      "anthropic-api-key",
      "chat-a-token",
      "chat-b-webhook-url",
    ]);
  });

  it("lists a default for every top-level section in 'Defaults, and why'", () => {
    const table = docs.slice(docs.indexOf("## Defaults, and why"), docs.indexOf("## Reference"));
    for (const section of [
      "webhook",
      "notifications",
      "ticketing",
      "engines",
      "execution",
      "guardrails",
      "store",
      "ops",
      "secrets",
    ]) {
      expect(table, section).toContain(`\`${section}.`);
    }
  });
});

describe("controller/errand.schema.json", () => {
  it("is the schema errand config schema prints (the demo's modeline points editors at it)", async () => {
    const { readFileSync } = await import("node:fs");
    const committed: unknown = JSON.parse(readFileSync(new URL("../errand.schema.json", import.meta.url), "utf8"));
    expect(
      committed,
      "regenerate it: node controller/bin/errand.cjs config schema > controller/errand.schema.json",
    ).toEqual(controllerConfigJsonSchema());
  });
});
