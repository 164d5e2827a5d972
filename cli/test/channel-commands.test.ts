import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { fixturesDir } from "./helpers/run-fixture.js";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "channel-cmd-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const config = join(fixturesDir, "conformance.json");

describe("channel test", () => {
  it("exits 1 and writes JSON and JUnit reports naming the failing check", async () => {
    const junit = join(root, "reports/junit.xml");
    const r = await runCli("channel", [
      "test",
      "--json",
      "--junit",
      junit,
      "--config",
      config,
      "--only",
      "startup,target.retry-after",
      "--",
      "node",
      join(fixturesDir, "broken/no-retry-429.mjs"),
    ]);
    expect(r.exitCode).toBe(1);
    const report = JSON.parse(r.stdout) as {
      summary: { failed: number };
      checks: { id: string; status: string; fix?: string }[];
    };
    expect(report.summary.failed).toBe(1);
    expect(report.checks.find((c) => c.id === "target.retry-after")).toMatchObject({
      status: "failed",
      fix: expect.stringContaining("Retry-After"),
    });
    expect(report.checks.find((c) => c.id === "startup.cookie")?.status).toBe("passed");
    const xml = await readFile(junit, "utf8");
    expect(xml).toMatch(/<testcase name="target.retry-after" classname="target"[^>]*>\s*<failure/);
    expect(xml).toMatch(/<testcase name="startup.cookie" classname="startup"[^>]*><\/testcase>/);
    // Human-readable lines go to stderr when --json owns stdout.
    expect(r.stderr).toContain("✗ target.retry-after");
  });

  it("exits 0 and prints ✓ lines when the selected checks pass", async () => {
    const r = await runCli("channel", [
      "test",
      "--config",
      config,
      "--only",
      "startup,handshake",
      "--",
      "node",
      join(fixturesDir, "good.mjs"),
    ]);
    expect(r.exitCode, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/✓ startup\.handshake-line .* \d+ ms/);
    expect(r.stdout).toContain("5 passed");
  });

  it("exits 2 when the run cannot start", async () => {
    const missing = await runCli("channel", ["test", "--", "/nonexistent/plugin"]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("does not exist");
    const noPackage = await runCli("channel", ["test", root]);
    expect(noPackage.exitCode).toBe(2);
    expect(noPackage.stderr).toContain("no package.json");
    await writeFile(join(root, "bad.json"), '{ "config": [] }');
    const badConfig = await runCli("channel", [
      "test",
      "--config",
      join(root, "bad.json"),
      "--",
      "node",
      join(fixturesDir, "good.mjs"),
    ]);
    expect(badConfig.exitCode).toBe(2);
    expect(badConfig.stderr).toContain('"config" must be an object');
  });
});

describe("channel send", () => {
  it("sends one notification and prints the result", async () => {
    const ticket = join(root, "ticket.json");
    await writeFile(ticket, JSON.stringify({ id: "42", title: "Hand-made ticket" }));
    const r = await runCli("channel", [
      "send",
      "start",
      "--ticket",
      ticket,
      "--",
      "node",
      join(fixturesDir, "../../../sdk/test/fixtures/plugins/echo.mjs"),
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✓ echo 1\.2\.3: start delivered in \d+ ms/);
    expect(r.stdout).toContain('"id":"42"');
  });

  it("prints the typed error and exits 1 when the plugin fails", async () => {
    const secrets = join(root, "secrets.json");
    await writeFile(secrets, JSON.stringify({ hook: "http://127.0.0.1:1/hook" }));
    const cfg = join(root, "config.json");
    await writeFile(cfg, JSON.stringify({ webhook_url_secret: "hook" }));
    const r = await runCli("channel", [
      "send",
      "notify",
      "--config",
      cfg,
      "--secrets",
      secrets,
      "--timeout",
      "3000",
      "--",
      "node",
      join(fixturesDir, "good.mjs"),
    ]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain("✗ fixture_webhook 1.0.0: notify failed");
    expect(r.stdout).toMatch(/ERR_UNAVAILABLE|ERR_DEADLINE_EXCEEDED/);
  });
});

describe("channel lint", () => {
  it("reports every problem of a package that is not ready to publish", async () => {
    const dir = join(root, "unready");
    await rm(dir, { recursive: true, force: true });
    await import("node:fs/promises").then((fs) => fs.mkdir(dir));
    await writeFile(
      join(dir, "package.json"),
      JSON.stringify({ name: "my-plugin", version: "1.0.0", bin: { "my-plugin": "dist/bin.js" } }),
    );
    const r = await runCli("channel", ["lint", "--json", dir]);
    expect(r.exitCode).toBe(1);
    const rules = (JSON.parse(r.stdout) as { findings: { rule: string; severity: string }[] }).findings.map(
      (f) => `${f.severity}:${f.rule}`,
    );
    expect(rules).toEqual(
      expect.arrayContaining(["warning:name", "error:keywords", "error:manifest", "error:engines", "error:build"]),
    );
  });
});
