#!/usr/bin/env node
// The plugin author's first minute, timed from a registry: the SDK, the CLI
// and create-channel published to the test registry, then for each run in a
// fresh folder `npx create-channel bN --yes` (npx fetches create-channel, the
// scaffold installs its dependencies), `npm run build` and `npx --no-install
// channel test` until it passes. The first run fills npm's cache; the others
// are the warm-cache figure of docs/benchmarks.md (target < 30 s).
// `node test/registry/scaffold-bench.mjs [runs]` (default 4); the packages must be built.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { writeNpmrc } from "./npmrc.mjs";
import { forgetNpxInstalls, publishPackages, userEnvironment } from "./publish-packages.mjs";
import { startTestRegistry } from "./registry-server.mjs";

const run = promisify(execFile);
const runs = Number(process.argv[2] ?? 4);
const root = await mkdtemp(join(tmpdir(), "scaffold-bench-"));
const registry = await startTestRegistry();
const npmrc = join(root, "npmrc");
await writeNpmrc(npmrc, registry, ["update-notifier=false"]);
const env = { ...userEnvironment(), NPM_CONFIG_USERCONFIG: npmrc, FORCE_COLOR: "0" };

/** @param {string} command @param {string} cwd */
async function timed(command, cwd) {
  const started = performance.now();
  await run("bash", ["-c", command], { cwd, env, maxBuffer: 64 * 1024 * 1024 });
  return (performance.now() - started) / 1000;
}

try {
  await publishPackages({ userconfig: npmrc, dirs: ["sdk", "cli", "cli/create-channel"] });
  // The first run installs create-channel for npx afresh, as a new user's would.
  await forgetNpxInstalls(env);
  const rows = [];
  for (let i = 1; i <= runs; i++) {
    const create = await timed(`npx create-channel b${i} --yes`, root);
    const build = await timed("npm run build", join(root, `b${i}`));
    const test = await timed("npx --no-install channel test", join(root, `b${i}`));
    rows.push({ run: i, create, build, test, total: create + build + test });
  }
  const s = (/** @type {number} */ x) => `${x.toFixed(1)} s`;
  process.stdout.write(
    "| run | npx create-channel --yes (with npm install) | npm run build | channel test | total |\n|---|---|---|---|---|\n",
  );
  for (const r of rows)
    process.stdout.write(
      `| ${r.run}${r.run === 1 ? " (fills the cache)" : ""} | ${s(r.create)} | ${s(r.build)} | ${s(r.test)} | ${s(r.total)} |\n`,
    );
  const warm = rows
    .slice(1)
    .map((r) => r.total)
    .sort((a, b) => a - b);
  if (warm.length > 0)
    process.stdout.write(
      `\nwarm cache: ${s(warm[0] ?? 0)} to ${s(warm.at(-1) ?? 0)}, median ${s(warm[Math.floor(warm.length / 2)] ?? 0)}\n`,
    );
} finally {
  await registry.close();
  await rm(root, { recursive: true, force: true });
}
