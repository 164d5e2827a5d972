import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startUserSession, type UserSession } from "../../test/registry/user-session.js";

// The plugin author's path from a registry, as a person types it: the SDK,
// the CLI and create-channel published to the test registry (everything else
// from registry.npmjs.org through it), then `npx create-channel`, build,
// conformance, unit tests and lint in the scaffold; then the package packed
// and installed into a fresh folder, and the conformance checks run against
// the installed bin. And the scaffold's GitHub workflow, its steps run in order.
let root: string;
let session: UserSession;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "channel-e2e-"));
  session = await startUserSession(root, ["sdk", "cli", "cli/create-channel"]);
}, 180_000);
afterAll(async () => {
  await session?.close();
  await rm(root, { recursive: true, force: true });
});

interface Report {
  summary: { failed: number; passed: number };
  checks: { id: string; status: string; actual?: string }[];
}

describe("end to end from the registry: npx create-channel → passing channel test → lint → installed tarball", () => {
  it("works for a webhook channel", async () => {
    const { sh } = session;
    const started = performance.now();
    const created = await sh("npx create-channel team-hook --yes --template webhook --name team_hook", root);
    expect(created.exitCode, created.all).toBe(0);
    const pkgDir = join(root, "team-hook");
    const pkg = JSON.parse(await readFile(join(pkgDir, "package.json"), "utf8"));
    expect(pkg.dependencies["@errand/channel-sdk"]).toMatch(/^\^\d+\.\d+\.\d+$/);
    const build = await sh("npm run build", pkgDir);
    expect(build.exitCode, build.all).toBe(0);
    const conformance = await sh("npx --no-install channel test --json", pkgDir);
    const createToPassMs = performance.now() - started;
    const report = JSON.parse(conformance.stdout) as Report;
    expect(report.checks.filter((c) => c.status === "failed")).toEqual([]);
    expect(conformance.exitCode).toBe(0);
    expect(report.summary.passed).toBe(report.checks.length);
    // The generated package's own tests pass without edits, and it is ready to publish.
    const unit = await sh("npm test", pkgDir);
    expect(unit.exitCode, unit.all).toBe(0);
    const lint = await sh("npx --no-install channel lint", pkgDir);
    expect(lint.exitCode, lint.all).toBe(0);
    expect(lint.all).toContain("ready to publish");

    // As a user gets it: the packed tarball installed into a fresh folder, its bin run by the checks.
    const packed = await sh("npm pack --json --pack-destination ..", pkgDir);
    const tarball = join(root, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
    const consumer = join(root, "consumer");
    await mkdir(consumer);
    const install = await sh(`npm init -y && npm install ${tarball}`, consumer);
    expect(install.exitCode, install.all).toBe(0);
    const installed = await sh(
      `npx --no-install channel test --json --config errand-conformance.json -- ${join(consumer, "node_modules/.bin/errand-channel-team-hook")}`,
      pkgDir,
    );
    const installedReport = JSON.parse(installed.stdout) as Report;
    expect(installedReport.checks.filter((c) => c.status === "failed")).toEqual([]);
    expect(installed.exitCode).toBe(0);
    const manifest = JSON.parse(
      await readFile(join(consumer, "node_modules/errand-channel-team-hook/package.json"), "utf8"),
    );
    expect(manifest.errand.channel).toBe("team_hook");
    process.stderr.write(
      `e2e: npx create-channel --yes (from the registry) → install → build → passing channel test: ${(createToPassMs / 1000).toFixed(1)} s\n`,
    );
  }, 300_000);

  it("passes the steps of its own GitHub workflow, each run as the workflow writes it", async () => {
    const created = await session.sh("npx create-channel ci-hook --yes --template webhook --name ci_hook", root);
    expect(created.exitCode, created.all).toBe(0);
    const pkgDir = join(root, "ci-hook");
    const workflow = parse(await readFile(join(pkgDir, ".github/workflows/ci.yml"), "utf8"));
    const runs = (workflow.jobs.test.steps as { run?: string }[]).flatMap((s) => (s.run ? [s.run] : []));
    expect(runs.length).toBeGreaterThanOrEqual(5);
    for (const step of runs) {
      const run = await session.sh(step, pkgDir);
      expect(run.exitCode, `${step}\n${run.all}`).toBe(0);
    }
  }, 300_000);
});
