import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ticketingSchema } from "../../../src/sources/ticketing-schema.js";

const DOC = resolve(import.meta.dirname, "../../../../docs/ticket-sources/codehost-a.md");

describe("docs/ticket-sources/codehost-a.md", () => {
  it("its errand.yaml example is a valid ticketing section with the documented defaults", () => {
    const block = /```yaml\n(# errand\.yaml\n[\s\S]*?)```/.exec(readFileSync(DOC, "utf8"))?.[1];
    expect(block).toBeDefined();
    const section = ticketingSchema.parse((parse(block ?? "") as { ticketing: unknown }).ticketing);
    expect(section).toMatchObject({
      backend: "codehost_a",
      poll_interval: 30,
      config: {
        token_secret: "codehost-a-token",
        owner: "acme",
        repo: "shop",
        labels: ["agent"],
        exclude_labels: ["do-not-automate"],
        in_progress_label: "agent-in-progress",
        failed_label: "agent-failed",
      },
    });
  });
});
