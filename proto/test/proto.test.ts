import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/support/temp-dir.js";

const protoDir = fileURLToPath(new URL("..", import.meta.url));
const buf = join(protoDir, "../node_modules/.bin/buf");

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

describe("proto definitions", () => {
  it("pass buf lint", () => {
    const result = spawnSync(buf, ["lint"], { cwd: protoDir, encoding: "utf8" });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("match the committed generated TypeScript (run `npm run generate -w proto` if this fails)", () => {
    const out = tempDir("errand-gen-");
    execFileSync(buf, ["generate", "--output", out], { cwd: protoDir });
    const fresh = join(out, "sdk/src/gen");
    const committed = join(protoDir, "../sdk/src/gen");
    expect(files(committed)).toEqual(files(fresh));
    for (const file of files(fresh)) {
      expect(readFileSync(join(committed, file), "utf8"), `${file} is stale`).toBe(
        readFileSync(join(fresh, file), "utf8"),
      );
    }
  });

  it("have no breaking change against the frozen v1 baseline", () => {
    const result = spawnSync(process.execPath, ["scripts/breaking.mjs"], { cwd: protoDir, encoding: "utf8" });
    expect(result.stderr).toMatch(/no breaking changes/);
    expect(result.status).toBe(0);
  });

  it.each([
    [
      "renumbering a field",
      (s: string) => s.replace("string title = 2;", "string title = 12;"),
      /field "2" with name "title"/,
    ],
    ["changing a field's type", (s: string) => s.replace("string repo_url = 5;", "bytes repo_url = 5;"), /type/],
    ["renaming a field", (s: string) => s.replace("string summary = 2;", "string summary_text = 2;"), /name/],
  ])("catch %s as breaking", (_name, mutate, message) => {
    const copy = tempDir("errand-proto-");
    cpSync(protoDir, copy, { recursive: true, filter: (src) => !src.includes("node_modules") });
    const file = join(copy, "errand/v1/common.proto");
    const mutated = mutate(readFileSync(file, "utf8"));
    expect(mutated).not.toBe(readFileSync(file, "utf8"));
    writeFileSync(file, mutated);
    const result = spawnSync(process.execPath, [join(protoDir, "scripts/breaking.mjs"), copy], { encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stdout + result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/Breaking change to interface v1/);
  });
});
