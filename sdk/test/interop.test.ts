import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../test/support/temp-dir.js";
import { ECHO_PLUGIN, launchEcho } from "./support/echo-plugin.js";
import { NotifyStartResponse, type PluginProcess } from "./support/protocol-internals.js";

// These tests need Debian's golang-go + golang-github-hashicorp-go-plugin-dev
// + golang-google-grpc-dev, and python3-grpcio + protobuf-compiler +
// libprotobuf-dev. `.ci/run` installs them and sets ERRAND_REQUIRE_INTEROP=1,
// so in CI a missing tool fails the run instead of skipping it.
const GOPATH = "/usr/share/gocode";
const PYTHON = "/usr/bin/python3";
const required = process.env.ERRAND_REQUIRE_INTEROP === "1";

function has(command: string, args: string[], env?: NodeJS.ProcessEnv): boolean {
  return spawnSync(command, args, { stdio: "ignore", env: { ...process.env, ...env } }).status === 0;
}
const goReady = has("go", ["version"]) && existsSync(join(GOPATH, "src/github.com/hashicorp/go-plugin"));
const pythonReady =
  has(PYTHON, ["-c", "import grpc, google.protobuf"])
  && has("protoc", ["--version"])
  && existsSync("/usr/include/google/protobuf/struct.proto");

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

describe.runIf(goReady || required)("interop: a hashicorp/go-plugin host drives an SDK plugin", () => {
  let hostBinary: string;
  beforeAll(() => {
    hostBinary = join(tempDir("errand-go-host-"), "go-host");
    execFileSync("go", ["build", "-o", hostBinary, "main.go"], {
      cwd: here("./interop/go-host"),
      env: {
        ...process.env,
        GO111MODULE: "off",
        GOPATH,
        GOCACHE: process.env.GOCACHE ?? join(homedir(), ".cache", "errand-go-build"),
        GOFLAGS: "",
      },
      stdio: ["ignore", "inherit", "inherit"],
    });
  }, 180_000);

  it("shows the plugin's error and warning records at ERROR and WARN in the host's hclog output", () => {
    // A Go host parses each stderr line of a plugin as hclog JSON; a line it
    // cannot parse goes out verbatim at DEBUG, which an INFO host never shows.
    const result = spawnSync(hostBinary, ["-title", "log-error", process.execPath, ECHO_PLUGIN], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ notifyStart: "ok" });
    // hclog's text format: `<time> [ERROR] <module>: <message>: key=value ...`, module = the plugin command's base name.
    const error = /^\S+ \[ERROR\] node: deliberate error for the host: (.*)$/m.exec(result.stderr);
    expect(error, result.stderr).not.toBeNull();
    // Fields in Go's map order, which varies.
    expect(error![1]!.split(" ").sort()).toEqual(
      expect.arrayContaining(["attempt=2", "channel=echo", "call=notifyStart"]),
    );
    expect(result.stderr).toMatch(/^\S+ \[WARN\] +node: deliberate warning for the host:/m);
    expect(result.stderr).not.toMatch(/\[DEBUG\]/);
  });

  for (const autoMTLS of [false, true]) {
    it(`launches, health-checks, calls and shuts down the plugin${autoMTLS ? " over AutoMTLS" : ""}`, () => {
      const args = [...(autoMTLS ? ["-automtls"] : []), process.execPath, ECHO_PLUGIN];
      const output = execFileSync(hostBinary, args, {
        env: { ...process.env, ERRAND_CHANNEL_CONFIG: JSON.stringify({ from: "env" }) },
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 30_000,
      });
      const report = JSON.parse(output.toString()) as Record<string, unknown>;
      expect(report).toMatchObject({ ping: "ok", notifyStart: "ok", exited: true, autoMTLS });
      // go-plugin waits 2 s for a graceful exit before it kills: we must beat it.
      expect(report.killMs).toBeLessThan(2000);
      const response = NotifyStartResponse.decode(Buffer.from(report.response as string, "base64"));
      expect(JSON.parse(response.deliveryId)).toMatchObject({
        kind: "notifyStart",
        id: "7",
        taskRunId: "run-go",
        engine: "go-engine",
        config: { from: "env" },
      });
    });
  }
});

describe.runIf(pythonReady || required)("interop: a Python client built from the .proto files calls every RPC", () => {
  let plugin: PluginProcess;
  let pythonPath: string;
  beforeAll(async () => {
    pythonPath = tempDir("errand-py-");
    execFileSync(
      "protoc",
      [
        "-I",
        ".",
        "-I",
        "/usr/include",
        `--python_out=${pythonPath}`,
        "errand/v1/common.proto",
        "errand/v1/notifications.proto",
      ],
      {
        cwd: here("../../proto"),
      },
    );
    plugin = await launchEcho();
  });
  afterAll(async () => {
    plugin?.child.kill();
    await plugin?.exited;
  });

  it("gets the right answer from Handshake, Notify, NotifyStart and NotifyComplete", () => {
    const output = execFileSync(PYTHON, [here("./interop/python_client.py"), `unix:${plugin.line.address}`], {
      env: { ...process.env, PYTHONPATH: pythonPath },
      timeout: 30_000,
    });
    const out = JSON.parse(output.toString()) as Record<
      string,
      { ok?: Record<string, unknown>; code?: string; details?: string }
    >;
    expect(out.handshake_v7).toMatchObject({
      code: "FAILED_PRECONDITION",
      details: expect.stringMatching(/supports 1/),
    });
    expect(out.handshake!.ok).toEqual({ interfaceVersion: 1, supportedVersions: [1], name: "echo", version: "1.2.3" });
    const delivered = (key: string) => JSON.parse(out[key]!.ok!.deliveryId as string) as Record<string, unknown>;
    const shared = {
      id: "101",
      taskRunId: "run-py",
      config: { channel_id: "C-PY", nested: { n: 1 } },
      secretNames: ["token"],
    };
    expect(delivered("notify")).toMatchObject({ kind: "notify", message: "halfway", ...shared });
    expect(delivered("notify_start")).toMatchObject({ kind: "notifyStart", engine: "py-engine", ...shared });
    expect(delivered("notify_complete")).toMatchObject({
      kind: "notifyComplete",
      success: true,
      costUsd: 1.25,
      ...shared,
    });
  });
});
