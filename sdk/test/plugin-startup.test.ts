import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { type Server, ServerCredentials } from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { bindServer } from "../src/plugin/bind-server.js";
import { ECHO_PLUGIN } from "./support/echo-plugin.js";
import { negotiateVersion } from "./support/protocol-internals.js";
import { startPlugin } from "./support/robust-plugin.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory whose own path is exactly `length` bytes long (ASCII). */
function dirOfLength(length: number): { parent: string; dir: string } {
  const parent = mkdtempSync(join(tmpdir(), "errand-len-"));
  made.push(parent);
  const dir = join(parent, "d".repeat(length - parent.length - 1));
  mkdirSync(dir);
  expect(Buffer.byteLength(dir)).toBe(length);
  return { parent, dir };
}

describe("start-up errors name the variable and leave nothing behind", () => {
  // The socket path is <dir>/errand-plugin-XXXXXX/plugin.sock: 33 bytes more than <dir>.
  it("a PLUGIN_UNIX_SOCKET_DIR too long for a socket path is refused before anything is created", async () => {
    const { parent, dir } = dirOfLength(107 - 33 + 1);
    const outcome = await startPlugin(ECHO_PLUGIN, { PLUGIN_UNIX_SOCKET_DIR: dir });
    expect(outcome).toMatchObject({ code: 1, started: false, stdout: "" });
    expect(outcome.stderr).toContain(`PLUGIN_UNIX_SOCKET_DIR=${JSON.stringify(dir)} is too long for a Unix socket`);
    expect(outcome.stderr).toMatch(
      /the socket path would be 108 bytes .* at most 107; set PLUGIN_UNIX_SOCKET_DIR to a shorter directory \(at most 74 bytes/,
    );
    expect(readdirSync(dir)).toEqual([]);
    expect(readdirSync(parent)).toEqual([basename(dir)]);
  });

  it("one exactly at the limit is used", async () => {
    const { dir } = dirOfLength(107 - 33);
    const outcome = await startPlugin(ECHO_PLUGIN, { PLUGIN_UNIX_SOCKET_DIR: dir });
    expect(outcome.started, outcome.stderr).toBe(true);
    expect(outcome.stdout).toMatch(new RegExp(`^1\\|1\\|unix\\|${dir}/errand-plugin-\\w{6}/plugin\\.sock\\|grpc\\n$`));
  });

  it("a PLUGIN_UNIX_SOCKET_DIR that does not exist is named, exit 1", async () => {
    const outcome = await startPlugin(ECHO_PLUGIN, { PLUGIN_UNIX_SOCKET_DIR: "/nonexistent/errand-dir" });
    expect(outcome).toMatchObject({ code: 1, started: false, stdout: "" });
    expect(outcome.stderr).toContain(
      'PLUGIN_UNIX_SOCKET_DIR="/nonexistent/errand-dir" does not exist; point PLUGIN_UNIX_SOCKET_DIR at an existing directory',
    );
  });

  it("a PLUGIN_CLIENT_CERT that is not a PEM certificate is named, exit 1, never a server that refuses everyone", async () => {
    for (const [transport, cert] of [
      ["tcp", "garbage, not a PEM"],
      ["unix", "-----BEGIN CERTIFICATE-----\nnot base64 at all!\n-----END CERTIFICATE-----\n"],
    ] as const) {
      const outcome = await startPlugin(ECHO_PLUGIN, { ERRAND_PLUGIN_TRANSPORT: transport, PLUGIN_CLIENT_CERT: cert });
      expect(outcome, transport).toMatchObject({ code: 1, started: false, stdout: "" });
      expect(outcome.stderr).toMatch(
        /PLUGIN_CLIENT_CERT is not a (readable )?PEM certificate .*leave the variable unset/,
      );
    }
  });

  // A plugin that ran on without the config or secrets its host meant to give would fail later, far from the cause.
  it.each([
    [
      "ERRAND_CHANNEL_SECRETS",
      "{",
      /^ERRAND_CHANNEL_SECRETS is not valid JSON \(.*\); set it to a JSON object such as \{"token":"\.\.\."\}, or leave it unset$/m,
    ],
    ["ERRAND_CHANNEL_SECRETS", '["s3cret"]', /^ERRAND_CHANNEL_SECRETS is an array, not a JSON object;/m],
    [
      "ERRAND_CHANNEL_SECRETS",
      '{"token":12345}',
      /^ERRAND_CHANNEL_SECRETS: the secret "token" is a number, not a string; give every secret as a JSON string$/m,
    ],
    [
      "ERRAND_CHANNEL_CONFIG",
      "channel_id=C1",
      /^ERRAND_CHANNEL_CONFIG is not valid JSON \(.*\); set it to a JSON object such as \{"channel_id":"C123"\}/m,
    ],
    ["ERRAND_CHANNEL_CONFIG", "null", /^ERRAND_CHANNEL_CONFIG is null, not a JSON object;/m],
  ])("%s=%s is a start-up error naming the variable, exit 1", async (name, value, message) => {
    const outcome = await startPlugin(ECHO_PLUGIN, { [name]: value });
    expect(outcome).toMatchObject({ code: 1, started: false, stdout: "" });
    expect(outcome.stderr).toMatch(message);
    expect(outcome.stderr).not.toContain("12345");
  });

  it("interface versions must be plain decimal integers", async () => {
    const outcome = await startPlugin(ECHO_PLUGIN, { PLUGIN_PROTOCOL_VERSIONS: "0x1" });
    expect(outcome).toMatchObject({ code: 1, started: false, stdout: "" });
    expect(outcome.stderr).toContain(
      'PLUGIN_PROTOCOL_VERSIONS="0x1" is not a comma-separated list of integers ("0x1" is not a plain decimal number)',
    );
    for (const bad of ["1e0", "+1", "1.0", "0b1"])
      expect(() => negotiateVersion(bad, [1]), bad).toThrow(/not a plain decimal number/);
    expect(negotiateVersion(" 1 , 2 ", [1, 2])).toBe(2);
  });

  it("an empty ERRAND_PLUGIN_TRANSPORT counts as unset (unix), like an empty PLUGIN_UNIX_SOCKET_DIR", async () => {
    const outcome = await startPlugin(ECHO_PLUGIN, { ERRAND_PLUGIN_TRANSPORT: "", PLUGIN_UNIX_SOCKET_DIR: "" });
    expect(outcome.started, outcome.stderr).toBe(true);
    expect(outcome.stdout).toMatch(/^1\|1\|unix\|/);
  });
});

describe("bindServer", () => {
  it("removes the socket directory it made when the bind fails, and forgets its exit hook", async () => {
    const parent = mkdtempSync(join(tmpdir(), "errand-bind-"));
    made.push(parent);
    const failing = {
      bindAsync: (_target: string, _credentials: unknown, callback: (error: Error | null, port: number) => void) =>
        callback(new Error("bind EADDRINUSE"), 0),
    } as unknown as Server;
    const env = {
      interfaceVersion: 1,
      transport: "unix",
      minPort: 1,
      maxPort: 2,
      socketDir: parent,
      socketDirLent: false,
      clientCertPem: undefined,
    } as const;
    const exitHooks = process.listenerCount("exit");
    await expect(bindServer(failing, env, ServerCredentials.createInsecure())).rejects.toThrow("bind EADDRINUSE");
    expect(readdirSync(parent)).toEqual([]);
    expect(process.listenerCount("exit")).toBe(exitHooks);
  });
});
