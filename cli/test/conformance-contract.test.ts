import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";
import { fixturesDir, runFixture } from "./helpers/run-fixture.js";

// What docs/conformance.md promises, checked against the CLI.
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "conformance-contract-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const envUrlPlugin = join(fixturesDir, "env-url.mjs");
const envConfig = { env: { API_URL: "{{sink_url}}/api" } };

describe("{{sink_url}} in env", () => {
  it("is replaced for every check that starts the plugin", async () => {
    const file = join(root, "env.json");
    await writeFile(file, JSON.stringify(envConfig));
    const r = await runCli("channel", [
      "test",
      "--json",
      "--config",
      file,
      "--only",
      "startup,health,handshake",
      "--",
      "node",
      envUrlPlugin,
    ]);
    const report = JSON.parse(r.stdout) as { checks: { id: string; status: string; actual?: string }[] };
    expect(report.checks.filter((c) => c.status === "failed")).toEqual([]);
    expect(report.checks.filter((c) => c.status === "passed").map((c) => c.id)).toEqual([
      "startup.cookie",
      "startup.handshake-line",
      "health.serving",
      "handshake.v1",
      "handshake.unsupported-version",
      "startup.stdout-clean",
    ]);
    expect(r.exitCode).toBe(0);
  });

  it("is replaced (and the env passed at all) in channel lint's Handshake", async () => {
    const dir = join(root, "env-package");
    await mkdir(dir);
    await writeFile(
      join(dir, "package.json"),
      JSON.stringify({
        name: "errand-channel-raw",
        version: "1.0.0",
        bin: { "errand-channel-raw": "bin.mjs" },
        errand: { channel: "raw_plugin", interfaceVersions: [1] },
      }),
    );
    await writeFile(
      join(dir, "bin.mjs"),
      `#!/usr/bin/env node\nimport ${JSON.stringify(pathToFileURL(envUrlPlugin).href)};\n`,
    );
    await writeFile(join(dir, "errand-conformance.json"), JSON.stringify(envConfig));
    const r = await runCli("channel", ["lint", "--json", dir]);
    const findings = (JSON.parse(r.stdout) as { findings: { rule: string; message: string }[] }).findings;
    expect(findings.filter((f) => f.rule === "handshake")).toEqual([]);
  });
});

describe("handshake.v1", () => {
  it("checks the interface version and supported versions the plugin answers", async () => {
    const results = await runFixture("broken/wrong-versions.mjs", { only: ["handshake.v1"] });
    expect(results.get("handshake.v1")).toMatchObject({
      status: "failed",
      actual: "it answered interface version 7 to a request for 1; its supported versions [] lack 1",
    });
  });
});

describe("--json", () => {
  it("names the plugin and its version, as its Handshake gave them", async () => {
    const r = await runCli("channel", [
      "test",
      "--json",
      "--config",
      join(fixturesDir, "conformance.json"),
      "--only",
      "handshake.v1",
      "--",
      "node",
      join(fixturesDir, "good.mjs"),
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { plugin: Record<string, unknown> };
    expect(report.plugin).toEqual({
      command: "node",
      args: [join(fixturesDir, "good.mjs")],
      name: "fixture_webhook",
      version: "1.0.0",
    });
  });
});
