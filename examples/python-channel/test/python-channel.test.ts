import { execFile, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

// The Python example needs Debian's python3-grpcio, python3-protobuf,
// protobuf-compiler, libprotobuf-dev and python3-grpc-tools. `.ci/run`
// installs them and sets ERRAND_REQUIRE_INTEROP=1, so in CI a missing tool
// fails instead of skipping, as in the SDK's interop tests.
const PYTHON = "/usr/bin/python3";
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const example = here("..");
const channelBin = here("../../../cli/bin/channel.js");
const run = promisify(execFile);

const succeeds = (command: string, args: string[]) => spawnSync(command, args, { stdio: "ignore" }).status === 0;
const ready = succeeds(PYTHON, ["-c", "import grpc, grpc_tools, google.protobuf"]) && succeeds("protoc", ["--version"]);
// No .pyc files in the example's folder.
const env: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: "1", FORCE_COLOR: "0" };

interface Report {
  plugin: { name?: string; version?: string };
  summary: { passed: number; failed: number; skipped: number };
  checks: { id: string; status: string; reason?: string; actual?: string }[];
}

describe.runIf(ready || process.env.ERRAND_REQUIRE_INTEROP === "1")("the Python example plugin", () => {
  beforeAll(async () => {
    // As the guide says: the interface's modules generated from proto/ with protoc and grpcio-tools.
    await run(PYTHON, ["generate.py"], { cwd: example, env });
  });

  it("passes channel test, every check but target.rate (it declares no rate)", async () => {
    const { stdout } = await run(
      process.execPath,
      [channelBin, "test", "--json", "--config", "errand-conformance.json", "--", PYTHON, "plugin.py"],
      {
        cwd: example,
        env,
      },
    ).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? "", stderr: error.stderr }));
    const report = JSON.parse(stdout) as Report;
    expect(report.checks.filter((c) => c.status === "failed")).toEqual([]);
    expect(report.plugin).toMatchObject({ name: "python_webhook", version: "0.1.0" });
    expect(report.checks.filter((c) => c.status === "skipped").map((c) => c.id)).toEqual(["target.rate"]);
    // The target checks ran: the plugin really posts, retries and gives up in time.
    expect(report.checks.filter((c) => c.id.startsWith("target.") && c.status === "passed")).toHaveLength(4);
  });

  it("refuses to start by hand and says how to try it, on stderr only", () => {
    const { ERRAND_PLUGIN_MAGIC_COOKIE: _cookie, ...withoutCookie } = env;
    const r = spawnSync(PYTHON, ["plugin.py"], { cwd: example, env: withoutCookie, encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("channel test --config errand-conformance.json -- python3 plugin.py");
  });
});
