import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { createVitest } from "vitest/node";
import { KNOWN_LONG_FILES } from "./support/longest-first.js";

// The order the root config's sequencer gives this repository's test files
// on a fresh clone: no durations recorded (an empty cache), so the files of
// minutes are started first by their KNOWN_LONG_FILES entries.
const repo = fileURLToPath(new URL("..", import.meta.url));

it("names files that exist", () => {
  for (const path of Object.keys(KNOWN_LONG_FILES)) expect(existsSync(join(repo, path)), path).toBe(true);
});

it("starts the known long files first on a fresh clone, whatever their project", async () => {
  const cacheDir = await mkdtemp(join(tmpdir(), "longest-first-"));
  const vitest = await createVitest("test", { watch: false, root: repo }, { cacheDir });
  try {
    const specs = await vitest.globTestSpecifications();
    const sorted = await new vitest.config.sequence.sequencer(vitest).sort(specs);
    const longest = Object.entries(KNOWN_LONG_FILES)
      .sort(([, a], [, b]) => b - a)
      .map(([path]) => path);
    expect(sorted.slice(0, longest.length).map((s) => relative(repo, s.moduleId))).toEqual(longest);
  } finally {
    await vitest.close();
    await rm(cacheDir, { recursive: true, force: true });
  }
}, 60_000);
