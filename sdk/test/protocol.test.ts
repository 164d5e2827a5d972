import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import { createServer } from "node:net";
import { dirname } from "node:path";
import { credentials, status as GrpcStatus, type ServiceError } from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { connectEcho, ECHO_PLUGIN, launchEcho, ticket, waitForExit } from "./support/echo-plugin.js";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "./support/internals.js";
import {
  callHealth,
  certificateFieldToPem,
  createClients,
  generateCertificate,
  HealthCheckResponse_ServingStatus,
  type PluginClients,
  type PluginProcess,
  sendNotification,
  unaryCall,
} from "./support/protocol-internals.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function launch(extra: Parameters<typeof launchEcho>[0] = {}): Promise<PluginProcess> {
  const proc = await launchEcho(extra);
  cleanups.push(() => proc.child.kill("SIGKILL"));
  return proc;
}

function clientsFor(proc: PluginProcess, creds = credentials.createInsecure()): PluginClients {
  const target = proc.line.network === "unix" ? `unix:${proc.line.address}` : proc.line.address;
  const clients = createClients(target, creds);
  cleanups.push(() => clients.close());
  return clients;
}

function run(
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ECHO_PLUGIN], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("plugin process protocol (go-plugin compatible)", () => {
  it("started by hand without the cookie, explains itself on stderr and exits non-zero", async () => {
    const result = await run({ [MAGIC_COOKIE_KEY]: undefined });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/not meant to be run by hand/);
    expect(result.stderr).toMatch(/channel test/);
  });

  it("prints exactly one handshake line on stdout, a unix socket in a private 0700 directory", async () => {
    const proc = await launch();
    expect(proc.line).toMatchObject({
      coreVersion: 1,
      interfaceVersion: 1,
      network: "unix",
      protocol: "grpc",
      serverCert: undefined,
    });
    expect(statSync(dirname(proc.line.address)).mode & 0o777).toBe(0o700);
    expect(statSync(proc.line.address).isSocket()).toBe(true);
    const clients = clientsFor(proc);
    await sendNotification(
      clients.channel,
      { kind: "notify", message: "m", ticket: ticket("stdout") },
      { timeoutMs: 5000 },
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(proc.extraStdout).toEqual([]);
  });

  it("removes its socket directory on shutdown", async () => {
    const proc = await launch();
    await unaryCall(clientsFor(proc).controller, "shutdown", {}, { timeoutMs: 2000 });
    await proc.exited;
    expect(() => statSync(dirname(proc.line.address))).toThrow();
  });

  it("listens on 127.0.0.1 within PLUGIN_MIN_PORT..PLUGIN_MAX_PORT when asked for tcp", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const proc = await launch({
      transport: "tcp",
      env: { PLUGIN_MIN_PORT: String(port), PLUGIN_MAX_PORT: String(port) },
    });
    expect(proc.line).toMatchObject({ network: "tcp", address: `127.0.0.1:${port}` });
    await callHealth(clientsFor(proc), 5000);
  });

  it("serves grpc.health.v1 for service 'plugin' and refuses unknown services", async () => {
    const clients = clientsFor(await launch());
    const ok = await unaryCall(clients.health, "check", { service: "plugin" }, { timeoutMs: 5000 });
    expect(ok.status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    const error = (await unaryCall(clients.health, "check", { service: "nope" }, { timeoutMs: 5000 }).catch(
      (e: unknown) => e,
    )) as ServiceError;
    expect(error.code).toBe(GrpcStatus.NOT_FOUND);
  });

  it("answers a Handshake for an unsupported version with FAILED_PRECONDITION naming the supported versions", async () => {
    const clients = clientsFor(await launch());
    const request = {
      interfaceVersion: 7,
      supportedVersions: [7],
      config: {},
      secrets: {},
      hostName: "test",
      hostVersion: "",
    };
    const error = (await unaryCall(clients.channel, "handshake", request, { timeoutMs: 5000 }).catch(
      (e: unknown) => e,
    )) as ServiceError;
    expect(error.code).toBe(GrpcStatus.FAILED_PRECONDITION);
    expect(error.details).toMatch(/interface version 7 is not supported by channel echo 1\.2\.3; it supports 1/);
    const ok = await unaryCall(clients.channel, "handshake", { ...request, interfaceVersion: 1 }, { timeoutMs: 5000 });
    expect(ok).toEqual({ interfaceVersion: 1, supportedVersions: [1], name: "echo", version: "1.2.3" });
  });

  it("without a Handshake (a go-plugin host), takes config and secrets from the environment", async () => {
    const proc = await launch({
      env: {
        ERRAND_CHANNEL_CONFIG: JSON.stringify({ channel_id: "C9" }),
        ERRAND_CHANNEL_SECRETS: JSON.stringify({ tok: "s3cret" }),
      },
    });
    const response = await sendNotification(
      clientsFor(proc).channel,
      { kind: "notifyStart", ticket: ticket("ok"), taskRunId: "r", engine: "e" },
      { timeoutMs: 5000 },
    );
    expect(JSON.parse(response.deliveryId)).toMatchObject({ config: { channel_id: "C9" }, secretNames: ["tok"] });
  });

  it("AutoMTLS: serves TLS with its own certificate on the line and accepts only the host's client certificate", async () => {
    const hostCert = await generateCertificate();
    const proc = await launch({ transport: "tcp", clientCertPem: hostCert.certPem });
    expect(proc.line.serverCert).toBeTruthy();
    const serverPem = certificateFieldToPem(proc.line.serverCert!);
    const authorized = clientsFor(
      proc,
      credentials.createSsl(Buffer.from(serverPem), Buffer.from(hostCert.keyPem), Buffer.from(hostCert.certPem)),
    );
    await callHealth(authorized, 5000);

    const stranger = await generateCertificate();
    const intruder = clientsFor(
      proc,
      credentials.createSsl(Buffer.from(serverPem), Buffer.from(stranger.keyPem), Buffer.from(stranger.certPem)),
    );
    await expect(callHealth(intruder, 2000)).rejects.toMatchObject({ code: GrpcStatus.UNAVAILABLE });
    const anonymous = clientsFor(proc, credentials.createSsl(Buffer.from(serverPem)));
    await expect(callHealth(anonymous, 2000)).rejects.toMatchObject({ code: GrpcStatus.UNAVAILABLE });
    const plaintext = clientsFor(proc);
    await expect(callHealth(plaintext, 2000)).rejects.toMatchObject({ code: GrpcStatus.UNAVAILABLE });
  });

  it("connectChannel over TCP uses AutoMTLS by default", async () => {
    const channel = await connectEcho({ transport: "tcp" });
    cleanups.push(() => void channel.close());
    await expect(channel.notify("x", ticket("ok"))).resolves.toHaveProperty("deliveryId");
  });

  it("exits on its own within a few seconds when its host dies without closing it", async () => {
    // A real host process that connects, reports the plugin's pid and is then killed outright.
    const hostScript = `
      const { connectChannel, silentLogger } = await import(${JSON.stringify(new URL("../dist/host/index.js", import.meta.url).href)});
      const channel = await connectChannel({ command: process.execPath, args: [${JSON.stringify(ECHO_PLUGIN)}], logger: silentLogger });
      process.stdout.write(String(channel.pid) + "\\n");
      setInterval(() => {}, 1000);
    `;
    const host = spawn(process.execPath, ["--input-type=module", "-e", hostScript], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const pluginPid = await new Promise<number>((resolve) =>
      host.stdout.once("data", (d) => resolve(Number(String(d).trim()))),
    );
    expect(pluginPid).toBeGreaterThan(0);
    host.kill("SIGKILL");
    expect(await waitForExit(pluginPid, 5000)).toBeLessThan(5000);
  });

  it("fails to start with the plugin's stderr in the error when it exits before the handshake", async () => {
    const error = await launchEcho({
      args: ["-e", "console.error('boom: missing dependency'); process.exit(4)"],
      startTimeoutMs: 5000,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ERR_PLUGIN_START" });
    expect((error as Error).message).toMatch(/exited \(code 4.*boom: missing dependency/s);
  });

  it("fails to start when the first stdout line is not a handshake line", async () => {
    const error = await launchEcho({
      args: ["-e", "console.log('hello world'); setTimeout(() => {}, 10000)"],
      startTimeoutMs: 5000,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ERR_PLUGIN_START", hint: expect.stringMatching(/only its handshake line/) });
  });

  it("times out a plugin that never prints its handshake line", async () => {
    const error = await launchEcho({ args: ["-e", "setTimeout(() => {}, 10000)"], startTimeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "ERR_PLUGIN_START" });
    expect((error as Error).message).toMatch(/no handshake line within 300 ms/);
  });

  it("uses the cookie value the spec names", () => {
    expect([MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE]).toEqual([
      "ERRAND_PLUGIN_MAGIC_COOKIE",
      "errand-notification-channel",
    ]);
  });
});
