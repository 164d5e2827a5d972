import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";

// The plugin author's whole path: scaffold with the local SDK (packed like a
// registry tarball), install, build, test, conformance, lint; then pack the
// plugin and install the tarball into a fresh folder as a user would, and run
// the conformance checks against the installed bin.
const sdkDir = fileURLToPath(new URL("../../sdk/", import.meta.url));
const npmFlags = ["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];
let root: string;
let sdkTarball: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "channel-e2e-"));
  const { stdout } = await execa("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", root], { cwd: sdkDir });
  sdkTarball = join(root, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("end to end: scaffold → publish → install → conformance", () => {
  it("works for a webhook channel", async () => {
    const started = performance.now();
    const created = await runCli("create-channel", ["team-hook", "--yes", "--template", "webhook", "--name", "team_hook", "--sdk", `file:${sdkTarball}`], { cwd: root });
    expect(created.exitCode, created.stderr + created.stdout).toBe(0);
    const pkgDir = join(root, "team-hook");
    const build = await execa("npm", ["run", "build"], { cwd: pkgDir, reject: false });
    expect(build.exitCode, build.stderr + build.stdout).toBe(0);
    const conformance = await runCli("channel", ["test", "--json"], { cwd: pkgDir });
    const createToPassMs = performance.now() - started;
    const report = JSON.parse(conformance.stdout) as { summary: { failed: number; passed: number }; checks: { id: string; status: string; actual?: string }[] };
    expect(report.checks.filter((c) => c.status === "failed")).toEqual([]);
    expect(conformance.exitCode).toBe(0);
    expect(report.summary.passed).toBe(report.checks.length);
    // The generated package's own tests pass without edits.
    const unit = await execa("npm", ["test"], { cwd: pkgDir, reject: false });
    expect(unit.exitCode, unit.stdout + unit.stderr).toBe(0);
    const lint = await runCli("channel", ["lint"], { cwd: pkgDir });
    expect(lint.exitCode, lint.stdout).toBe(0);

    // Publish-like: pack, install the tarball into a fresh project, run the installed bin.
    const packed = await execa("npm", ["pack", "--json", "--pack-destination", root], { cwd: pkgDir });
    const tarball = join(root, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
    const consumer = join(root, "consumer");
    await mkdir(consumer);
    await execa("npm", ["init", "-y"], { cwd: consumer });
    const install = await execa("npm", ["install", ...npmFlags, tarball], { cwd: consumer, reject: false });
    expect(install.exitCode, install.stderr).toBe(0);
    const installedBin = join(consumer, "node_modules/.bin/errand-channel-team-hook");
    const installed = await runCli("channel", ["test", "--json", "--config", join(pkgDir, "errand-conformance.json"), "--", installedBin], { cwd: consumer });
    const installedReport = JSON.parse(installed.stdout) as { checks: { id: string; status: string }[] };
    expect(installedReport.checks.filter((c) => c.status === "failed")).toEqual([]);
    expect(installed.exitCode).toBe(0);
    const manifest = JSON.parse(await readFile(join(consumer, "node_modules/errand-channel-team-hook/package.json"), "utf8"));
    expect(manifest.errand.channel).toBe("team_hook");
    process.stderr.write(`e2e: create-channel --yes → install → build → passing channel test: ${(createToPassMs / 1000).toFixed(1)} s\n`);
  }, 240_000);
});
