import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../../test/support/temp-dir.js";
import { loadControllerConfig } from "../../../src/config/load-controller-config.js";
import { fencedBlocks } from "../../docs/helpers/doc-snippets.js";

const DOC = "docs/ticket-sources/tracker-b.md";

describe(DOC, () => {
  it("has an errand.yaml example the controller loads, with the stories' repository from ticketing.config.repo_url", async () => {
    const example = fencedBlocks(DOC).find((b) => b.lang === "yaml" && b.text.startsWith("# errand.yaml"));
    expect(example, "no ```yaml block starting with # errand.yaml").toBeDefined();
    const file = join(tempDir("errand-tracker-b-doc-"), "errand.yaml");
    // The page shows the ticketing section; an engine makes it a file the controller starts with.
    writeFileSync(file, `${example?.text ?? ""}\nengines:\n  agent: { kind: command, command: [/bin/true] }\n`);
    const { config } = await loadControllerConfig(file, { env: { ERRAND_SECRET_TRACKER_B_TOKEN: "sc-token" } });
    // A story names no repository: the example gives its runs one.
    expect(config.ticketing).toMatchObject({
      backend: "tracker_b",
      pollIntervalMs: 30_000,
      tokenSecret: "tracker-b-token",
      repoUrl: "https://github.com/acme/shop",
    });
    expect(config.ticketing?.config).toMatchObject({
      owner_mention_name: "errand-bot",
      workflow_state_name: "Ready for Agent",
      exclude_labels: ["do-not-automate"],
    });
  });
});
