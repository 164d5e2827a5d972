import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// Checks every built-in channel package the same way: the conformance runner
// passes against its bin and errand-conformance.json, and its setup guide shows
// the payloads its snapshot tests pin down.
const CLI = fileURLToPath(new URL("../cli/bin/channel.js", import.meta.url));
// The channel's name (config, wire) and its package's folder (spelled as the npm name, as is its guide in docs/channels/).
const CHANNELS = [
  { name: "chat_a", folder: "chat-a" },
  { name: "chat_b", folder: "chat-b" },
];

interface Report {
  summary: { passed: number; failed: number; skipped: number };
  checks: { id: string; status: string; actual?: string; fix?: string }[];
}

describe.each(CHANNELS)("built-in channel $name", ({ folder }) => {
  const pkg = fileURLToPath(new URL(`../channels/${folder}/`, import.meta.url));

  it("passes every `channel test` check, the target checks included", async () => {
    const run = await promisify(execFile)(process.execPath, [CLI, "test", pkg, "--json", "--concurrency", "3"], {
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string }) => error);
    const report = JSON.parse(run.stdout ?? "{}") as Report;
    const failed = report.checks?.filter((c) => c.status !== "passed") ?? [];
    expect(failed, run.stderr).toEqual([]);
    expect(report.summary.passed).toBeGreaterThanOrEqual(22);
    expect(report.checks.map((c) => c.id)).toContain("target.rate");
  }, 70_000);

  it(`docs/channels/${folder}.md shows every snapshotted payload exactly as the channel sends it`, () => {
    const snapshots = new URL(`../channels/${folder}/test/__snapshots__/`, import.meta.url);
    const guide = readFileSync(new URL(`../docs/channels/${folder}.md`, import.meta.url), "utf8");
    const files = readdirSync(snapshots).filter((f) => f.endsWith(".json") && !f.includes("unicode"));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
      expect(guide, `${file} is missing or outdated in the guide`).toContain(`\`\`\`json\n${readFileSync(new URL(file, snapshots), "utf8")}\`\`\``);
    }
  });
});
