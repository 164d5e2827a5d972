import { readdirSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import { SECRET_KEY_ALIASES, SOURCE_IDS } from "../src/config/webhook-config.js";
import type { PollBackend, SecretSourceId, SourceId } from "../src/index.js";
import { POLL_BACKENDS } from "../src/vendors/poll-backends.js";
import { VENDORS } from "../src/vendors/registry.js";
import { ENABLE_HINT, ROUTES } from "../src/webhook/routes.js";

// The lists the webhook server, the config and the poller read are derived from vendors/registry.ts and
// vendors/poll-backends.ts; these are the values they had when each was written out by hand.
describe("vendors/registry.ts", () => {
  it("derives the source ids, the secret keys' vendor names and the routes", () => {
    expectTypeOf<SourceId>().toEqualTypeOf<"codehost_a" | "codehost_b" | "tracker_b" | "chat_a" | "generic">();
    expectTypeOf<SecretSourceId>().toEqualTypeOf<"codehost_a" | "codehost_b" | "tracker_b" | "chat_a">();
    expect(SOURCE_IDS).toEqual(["codehost_a", "codehost_b", "tracker_b", "chat_a", "generic"]);
    expect(SECRET_KEY_ALIASES).toEqual({
      codehost_a: "github",
      codehost_b: "gitlab",
      tracker_b: "shortcut",
      chat_a: "slack",
    });
    expect([...ROUTES]).toEqual([
      ["/webhooks/codehost-a", "codehost_a"],
      ["/webhooks/github", "codehost_a"],
      ["/webhooks/codehost-b", "codehost_b"],
      ["/webhooks/gitlab", "codehost_b"],
      ["/webhooks/tracker", "tracker_b"],
      ["/webhooks/shortcut", "tracker_b"],
      ["/webhooks/chat", "chat_a"],
      ["/webhooks/slack", "chat_a"],
      ["/webhooks/generic", "generic"],
    ]);
    expect(Object.keys(ENABLE_HINT)).toEqual(SOURCE_IDS);
  });

  it("lists the poll backends in the schema's order", () => {
    expectTypeOf<PollBackend>().toEqualTypeOf<"tracker_a" | "tracker_b" | "codehost_a">();
    expect(POLL_BACKENDS.map((b) => b.backend)).toEqual(["tracker_a", "tracker_b", "codehost_a"]);
  });

  it("has one folder per vendor, named after its id in kebab case, and no folder without a vendor", () => {
    const folders = readdirSync(new URL("../src/vendors/", import.meta.url), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(folders).toEqual(VENDORS.map((v) => v.id.replaceAll("_", "-")).sort());
    for (const { backend } of POLL_BACKENDS) expect(VENDORS.map((v) => v.id)).toContain(backend);
  });
});
