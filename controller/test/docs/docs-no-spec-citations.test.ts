import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { runConfigCheck } from "../../src/cli/commands/config.js";
import { controllerConfigJsonSchema } from "../../src/config/controller-config-json-schema.js";
import { REPO_ROOT } from "./helpers/doc-snippets.js";

// Readers have no "spec": a pointer goes to the project's own docs instead. Matched across line breaks
// ("spec\nsections 1.3"), with or without "section" or "§", and "the spec" without a number too.
const CITATION = /\bspec\s*\(?\s*(?:sections?\s*|§\s*)?\d|§\s*\d|\bthe\s+spec(?:ification)?\b/gi;

function markdownUnder(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".md"))
    .map((e) => join(e.parentPath, e.name));
}

/** Each spec citation in `text`, with the line it starts on. */
function citations(text: string): string[] {
  return [...text.matchAll(CITATION)].map(
    (m) =>
      `line ${text.slice(0, m.index).split("\n").length}: ${text.slice(m.index, m.index + 40).replace(/\s+/g, " ")}`,
  );
}

describe("user-facing text cites no spec sections", () => {
  it("finds a citation when there is one", () => {
    const text =
      "ok\nBound of each call (spec 8: under 5 s)\nretries (spec §7)\nThe spec (section 2.5, 8) names\nchannel (spec\nsections 1.3-1.5)\nthe spec's field names\n";
    expect(citations(text).map((c) => c.slice(0, 7))).toEqual(["line 2:", "line 3:", "line 4:", "line 5:", "line 7:"]);
    expect(citations("a specific spectrum; the speculation")).toEqual([]);
  });

  it("the JSON Schema of errand.yaml, as generated and as committed", () => {
    expect(citations(JSON.stringify(controllerConfigJsonSchema(), null, 2))).toEqual([]);
    expect(citations(readFileSync(join(REPO_ROOT, "controller/errand.schema.json"), "utf8"))).toEqual([]);
  });

  const readmes = [
    "README.md",
    "CONTRIBUTING.md",
    "proto/README.md",
    "sdk/README.md",
    "controller/README.md",
    "cli/README.md",
    "cli/create-channel/README.md",
  ].map((f) => join(REPO_ROOT, f));
  it.each([...markdownUnder("docs"), ...readmes].map((file) => [file.slice(REPO_ROOT.length + 1), file]))(
    "%s",
    (_name, file) => {
      expect(citations(readFileSync(file, "utf8"))).toEqual([]);
    },
  );

  it("errand config check's output, valid and not", async () => {
    const dir = tempDir("errand-citations-");
    const bad = join(dir, "bad.yaml");
    writeFileSync(
      bad,
      "webhook:\n  port: 80800\nnotifications:\n  call_timeout_ms: 9000\nticketing:\n  backend: codehost_a\n  poll_interval: 0\n",
    );
    const outputs = await Promise.all([
      runConfigCheck({ cwd: dir, env: {} }),
      runConfigCheck({ cwd: dir, config: bad, env: {} }),
      runConfigCheck({ cwd: dir, config: bad, env: {}, json: true }),
    ]);
    expect(outputs[1]?.exitCode).toBe(1);
    expect(outputs.flatMap((o) => citations(`${o.stdout}${o.stderr}`))).toEqual([]);
  });
});
