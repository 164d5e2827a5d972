import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { channelDirs, manifest } from "./support/workspaces.mjs";

// Checks every built-in channel package the same way: the conformance runner
// passes against its bin and errand-conformance.json, and its setup guide shows
// the payloads its snapshot tests pin down.
const CLI = fileURLToPath(new URL("../cli/bin/channel.js", import.meta.url));
// The channel's name (config, wire) and its package's folder (spelled as the npm name, as is its guide in docs/channels/):
// every channel package under channels/, from the root's workspaces (test/support/workspaces.mjs).
const CHANNELS = channelDirs()
  .filter((dir) => dir.startsWith("channels/"))
  .map((dir) => ({ name: manifest(dir).errand!.channel!, folder: dir.slice("channels/".length) }));

interface Report {
  summary: { passed: number; failed: number; skipped: number };
  checks: { id: string; status: string; actual?: string; fix?: string }[];
}

it("finds the built-in channels in the workspaces", () => {
  expect(CHANNELS).toEqual(
    expect.arrayContaining([
      { name: "chat_a", folder: "chat-a" },
      { name: "chat_b", folder: "chat-b" },
    ]),
  );
});

// A channel folder the controller does not load would be published and tested but never run.
it("each is a dependency of the controller and one of its built-in channels, under its own name", async () => {
  const { BUILTIN_CHANNELS } = await import("../controller/src/notify/builtin-channels.js");
  const dependencies = manifest("controller").dependencies ?? {};
  for (const { name, folder } of CHANNELS) {
    const packageName = manifest(`channels/${folder}`).name;
    expect(Object.keys(dependencies), `controller/package.json: dependencies lacks ${packageName}`).toContain(
      packageName,
    );
    expect(
      BUILTIN_CHANNELS[name]?.packageName,
      `controller/src/notify/builtin-channels.ts: BUILTIN_CHANNELS lacks ${name}`,
    ).toBe(packageName);
  }
  expect(Object.keys(BUILTIN_CHANNELS).sort()).toEqual(CHANNELS.map((c) => c.name).sort());
});

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
      expect(guide, `${file} is missing or outdated in the guide`).toContain(
        `\`\`\`json\n${readFileSync(new URL(file, snapshots), "utf8")}\`\`\``,
      );
    }
  });
});
