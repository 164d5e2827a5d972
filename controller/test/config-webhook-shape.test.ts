import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/support/temp-dir.js";
import { loadControllerConfig, loadWebhookConfig } from "../src/config/index.js";

// The webhook section's runtime shape is the schema transform's output: these pin it key for key (absent keys
// included), for both readers, so that a change to the transform shows here.
const dir = tempDir("errand-webhook-shape-");
let n = 0;
function file(text: string): string {
  const path = join(dir, `c${n++}.yaml`);
  writeFileSync(path, text);
  return path;
}

const SECTION = `webhook:
  port: 9000
  secrets: { github: gh-inline, tracker_b: { env: TB_SECRET } }
  shortcut_target_state_id: 500
  generic:
    auth_mode: hmac
    secret: { env: GENERIC_SECRET }
    signature_header: X-Sig
    field_mapping: { "data.id": id, "data.name": title }
  timeouts: { handler_ms: 4000 }
  dedupe: { ttl_seconds: 60 }
  metrics: false
`;
const ENV = { TB_SECRET: "tb-secret", GENERIC_SECRET: "generic-secret" };
const RESOLVED = {
  host: "0.0.0.0",
  port: 9000,
  maxBodyBytes: 1048576,
  maxHeaderBytes: 16384,
  secrets: { codehost_a: "gh-inline", tracker_b: "tb-secret" },
  timeouts: { headersMs: 10000, requestMs: 30000, keepAliveMs: 5000, handlerMs: 4000, shutdownMs: 10000 },
  dedupe: { maxEntries: 10000, ttlSeconds: 60 },
  metrics: false,
  shortcutTargetStateId: "500",
  generic: {
    authMode: "hmac",
    signatureHeader: "x-sig",
    secret: "generic-secret",
    fieldMapping: [
      ["data.id", "id"],
      ["data.name", "title"],
    ],
  },
};

describe("the webhook section's runtime shape", () => {
  it("errand webhook serve: enabled as written, no allowUnsignedTrackerB, no label rules", async () => {
    const { config, warnings } = await loadWebhookConfig(file(SECTION), { env: ENV });
    expect(config).toStrictEqual({ enabled: undefined, ...RESOLVED });
    expect(warnings).toEqual([]);
  });

  it("the controller: enabled by its sources, allowUnsignedTrackerB, code host A's label rules, in that order", async () => {
    const ticketing =
      "engines: { codex: {} }\nticketing:\n  backend: codehost_a\n  config: { token_secret: gh-token, owner: acme, repo: app }\n";
    const { config, warnings } = await loadControllerConfig(file(SECTION + ticketing), { env: ENV });
    const rules = {
      labels: [],
      exclude_labels: [],
      in_progress_label: "agent-in-progress",
      failed_label: "agent-failed",
    };
    expect(config.webhook).toStrictEqual({
      enabled: true,
      ...RESOLVED,
      allowUnsignedTrackerB: false,
      codehostARules: rules,
    });
    expect(Object.keys(config.webhook)).toEqual([
      "enabled",
      "host",
      "port",
      "maxBodyBytes",
      "maxHeaderBytes",
      "secrets",
      "timeouts",
      "dedupe",
      "metrics",
      "allowUnsignedTrackerB",
      "shortcutTargetStateId",
      "generic",
      "codehostARules",
    ]);
    expect(warnings.filter((w) => w.startsWith("webhook."))).toEqual([
      "webhook.secrets.github is written in the file itself: anyone who can read it can forge requests; keep it in a secret and write { secret: NAME }",
    ]);
  });
});
