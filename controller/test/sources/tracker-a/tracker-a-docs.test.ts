import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../../test/support/temp-dir.js";
import { loadControllerConfig } from "../../../src/config/load-controller-config.js";
import { fencedBlocks } from "../../docs/helpers/doc-snippets.js";

const DOC = "docs/ticket-sources/tracker-a.md";

describe(DOC, () => {
  it("has an errand.yaml example the controller loads, with the tickets' repository, warning only of the empty allowed_repos", async () => {
    const example = fencedBlocks(DOC).find((b) => b.lang === "yaml" && b.text.startsWith("# errand.yaml"));
    expect(example, "no ```yaml block starting with # errand.yaml").toBeDefined();
    const file = join(tempDir("errand-tracker-a-doc-"), "errand.yaml");
    writeFileSync(file, example?.text ?? "");
    const { config, warnings } = await loadControllerConfig(file, {
      env: { ERRAND_SECRET_TRACKER_A_TOKEN: "lin_api_x", ERRAND_SECRET_ANTHROPIC_API_KEY: "sk-x" },
    });
    // Issues name no repository: the example gives them ticketing.config.repo_url.
    expect(warnings).toEqual([expect.stringMatching(/^guardrails\.allowed_repos is empty/)]);
    expect(config.ticketing).toMatchObject({
      backend: "tracker_a",
      pollIntervalMs: 30_000,
      tokenSecret: "tracker-a-token",
      repoUrl: "https://github.com/acme/shop",
    });
    expect(config.ticketing?.config).toMatchObject({
      state_filter: "Todo",
      labels: ["agent"],
      exclude_labels: ["wontfix"],
    });
  });
});
