import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const snapshots = new URL("./__snapshots__/", import.meta.url);
const PACKAGE = new URL("..", import.meta.url).pathname.split("/").filter(Boolean).at(-1)!;
const guide = readFileSync(new URL(`../../../docs/channels/${PACKAGE}.md`, import.meta.url), "utf8");

describe(`docs/channels/${PACKAGE}.md`, () => {
  it("shows every snapshotted payload exactly as the channel sends it", () => {
    const files = readdirSync(snapshots).filter((f) => f.endsWith(".json") && !f.includes("unicode"));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
      expect(guide, `${file} is missing or outdated in the guide`).toContain("```json\n" + readFileSync(new URL(file, snapshots), "utf8") + "```");
    }
  });
});
