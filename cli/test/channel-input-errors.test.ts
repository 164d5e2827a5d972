import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConformanceConfig } from "../src/conformance/config.js";
import { runConformance } from "../src/conformance/runner.js";
import { runCli } from "./helpers/cli.js";
import { fixturesDir } from "./helpers/run-fixture.js";

// Bad input gets a clear error (what, where, how to fix) and the documented
// exit code, before any plugin starts; never a stack trace.
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "channel-input-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const config = join(fixturesDir, "conformance.json");
const good = join(fixturesDir, "good.mjs");
const test = (...args: string[]) => runCli("channel", ["test", ...args]);

async function packageDir(name: string, json: string, files: Record<string, string> = {}): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "package.json"), json);
  for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text);
  return dir;
}

describe("channel test numeric options", () => {
  it.each([
    ["--concurrency", "abc"],
    ["--concurrency", "0"],
    ["--concurrency", "1.5"],
    ["--concurrency", "1000"],
    ["--start-timeout", "abc"],
    ["--start-timeout", "-5"],
    ["--start-timeout", "3000000000"],
  ])("%s %s is a usage error (exit 2)", async (option, value) => {
    const r = await test(`${option}=${value}`, "--", "node", good);
    expect(r.exitCode, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain(option);
    expect(r.stderr).toMatch(/whole number from 1 to \d+/);
    expect(r.stderr).not.toMatch(/TypeError|at .*\.js:\d+/);
  });

  it("a startTimeoutMs beyond the limit in the config is a config error", async () => {
    const file = join(root, "slow.json");
    await writeFile(file, JSON.stringify({ startTimeoutMs: 3_000_000_000 }));
    const r = await test("--config", file, "--", "node", good);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('"startTimeoutMs" must be a whole number of milliseconds from 1 to 600000');
  });
});

describe("channel test selection", () => {
  it.each(["--only", "--skip"])("an unknown check id in %s is a usage error listing the valid ids", async (option) => {
    const r = await test(option, "startup,nosuch", "--", "node", good);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${option}: no check is called "nosuch"`);
    expect(r.stderr).toContain("handshake.v1");
    expect(r.stdout).not.toContain("passed");
  });
});

describe("channel test config and reports", () => {
  it("a header name the sink cannot send is a config error naming it", async () => {
    const file = join(root, "headers.json");
    await writeFile(file, JSON.stringify({ sink: { headers: { "x-bad\n": "v" } } }));
    const r = await test("--config", file, "--only", "notify.basic", "--", "node", good);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('"sink.headers" "x-bad\\n": not a valid HTTP header name');
  });

  it.each([
    ["a path under a file", () => join(fixturesDir, "good.mjs", "r.xml"), "is a file, not a folder"],
    ["a folder", () => `${root}/`, "is a directory"],
  ])("an unwritable --junit path (%s) is refused before the run", async (_, path, message) => {
    const r = await test("--config", config, "--junit", path(), "--only", "startup", "--", "node", good);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).not.toContain("startup.cookie");
  });
});

describe("malformed package.json", () => {
  it("null is refused by test and lint with the file's name", async () => {
    const dir = await packageDir("null", "null");
    for (const command of ["test", "lint"]) {
      const r = await runCli("channel", [command, dir]);
      expect(r.exitCode, `${command}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`${join(dir, "package.json")} must hold a JSON object, not null`);
    }
  });

  it("fields of the wrong type are lint errors, not crashes", async () => {
    const dir = await packageDir("types", JSON.stringify({ name: 5, version: "1.0.0", keywords: { a: 1 }, bin: 7 }));
    const r = await runCli("channel", ["lint", "--json", dir]);
    expect(r.exitCode, r.stderr).toBe(1);
    const messages = (JSON.parse(r.stdout) as { findings: { rule: string; message: string }[] }).findings
      .filter((f) => f.rule === "package.json")
      .map((f) => f.message);
    expect(messages).toEqual([
      'package.json: "name" must be a string, not the number 5',
      'package.json: "bin" must be a string or an object of strings, not the number 7',
      'package.json: "keywords" must be a list of strings, not an object',
    ]);
    const t = await runCli("channel", ["test", dir]);
    expect(t.exitCode).toBe(2);
    expect(t.stderr).toContain(
      'declares no "bin" that serves the channel ("bin" must be a string or an object of strings',
    );
  });
});

describe("a plugin command that cannot be started", () => {
  it("a non-executable file is refused with exit 2 and how to fix it", async () => {
    const script = join(root, "noexec.sh");
    await writeFile(script, "#!/bin/sh\necho hi\n");
    await chmod(script, 0o644);
    const r = await test("--", script);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${script} is not executable: make it so (chmod +x ${script})`);
    const dir = await packageDir("noexec-bin", JSON.stringify({ name: "x", bin: "plugin.sh" }), {
      "plugin.sh": "#!/bin/sh\n",
    });
    const pkg = await test(dir);
    expect(pkg.exitCode).toBe(2);
    expect(pkg.stderr).toContain("the bin plugin.sh of x is not executable");
  });

  it("fails startup.cookie instead of passing it when spawn itself fails", async () => {
    const script = join(root, "noexec2.sh");
    await writeFile(script, "#!/bin/sh\n");
    await chmod(script, 0o644);
    const [cookie] = await runConformance(
      { target: { command: script, args: [], cwd: root }, conformance: undefined, startTimeoutMs: 2000 },
      { only: ["startup.cookie"] },
    );
    expect(cookie).toMatchObject({
      id: "startup.cookie",
      status: "failed",
      actual: expect.stringContaining("EACCES"),
      fix: expect.stringContaining("chmod +x"),
    });
  });
});

describe("channel lint messages", () => {
  it("a missing directory says so, without suggesting a -- command lint does not take", async () => {
    const r = await runCli("channel", ["lint", join(root, "nonexistent")]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("does not exist; give the directory of a plugin package");
    expect(r.stderr).not.toContain("--");
  });

  it("a failing npm pack --dry-run comes with npm's reason", async () => {
    const dir = await packageDir("no-version", JSON.stringify({ name: "errand-channel-x" }));
    const r = await runCli("channel", ["lint", "--json", dir]);
    const files = (JSON.parse(r.stdout) as { findings: { rule: string; message: string }[] }).findings.find(
      (f) => f.rule === "files",
    );
    expect(files?.message).toContain("npm pack --dry-run failed: Invalid package, must have name and version");
  });
});

describe("handshake.v1 fix text", () => {
  it("does not blame missing config when the plugin does not answer at all", async () => {
    const r = await test(
      "--json",
      "--only",
      "startup.handshake-line,handshake.v1",
      "--",
      "node",
      join(fixturesDir, "no-server.mjs"),
    );
    expect(r.exitCode).toBe(1);
    const check = (JSON.parse(r.stdout) as { checks: { id: string; status: string; fix?: string }[] }).checks.find(
      (c) => c.id === "handshake.v1",
    )!;
    expect(check.status).toBe("failed");
    expect(check.fix).not.toContain("needs config");
    expect(check.fix).toContain("address its handshake line names");
  });

  it("still points at the config when the channel refuses it", async () => {
    const conformance = await loadConformanceConfig(config);
    const [, v1] = await runConformance(
      {
        target: { command: process.execPath, args: [good], cwd: root },
        conformance: { ...conformance, config: {} },
        startTimeoutMs: 10_000,
      },
      { only: ["startup.handshake-line", "handshake.v1"] },
    ).then((results) => results.filter((r) => r.status !== "skipped"));
    expect(v1).toMatchObject({
      id: "handshake.v1",
      status: "failed",
      fix: expect.stringContaining("gives every config field and secret"),
    });
  });
});
