import { basename } from "node:path";
import { type ChannelCredentials, credentials as grpcCredentials } from "@grpc/grpc-js";
import type { Channel } from "../channel.js";
import { type ChannelError, PluginStartError } from "../errors.js";
import type { HandshakeRequest, HandshakeResponse } from "../gen/errand/v1/common.js";
import { createLogger, type Logger } from "../logger.js";
import { maskError } from "../secret-mask-errors.js";
import { type CheckedConnectOptions, type ConnectOptions, checkConnectOptions } from "./connect-options.js";
import { callHealth, callShutdown, createClients, type PluginClients, unaryCall } from "./grpc-clients.js";
import { handshakeFailure } from "./handshake-failure.js";
import { guardLogger } from "./host-logger.js";
import { describeCommand } from "./launch-checks.js";
import { launchPlugin, type PluginExit, type PluginProcess } from "./plugin-process.js";
import { RemoteChannel } from "./remote-channel.js";
import { stopProcess } from "./stop-process.js";

/** A channel served by a plugin process. */
export type { ConnectOptions, PluginExit, RemoteChannel };

/**
 * Launches a plugin process and completes the whole handshake: the stdout
 * line, a health check, and the Handshake RPC with config and secrets. The
 * result has the same {@link Channel} shape as an in-process channel, plus
 * `close()` and exit events.
 *
 * Rejects with InvalidArgumentError for unusable options (naming the
 * option), PluginStartError when the process cannot be started or does not
 * complete its handshake (with its last stderr lines and a hint),
 * VersionMismatchError, or the plugin's own typed error when its `init`
 * refuses the config. On failure the process is stopped (SIGTERM, then
 * SIGKILL) before the promise rejects. Secret values are masked in every log
 * line and error.
 */
export async function connectChannel(options: ConnectOptions): Promise<RemoteChannel> {
  const checked = checkConnectOptions(options);
  const secretValues = Object.values(checked.secrets);
  const base = options.logger
    ? guardLogger(options.logger, secretValues)
    : guardLogger(createLogger({ secrets: secretValues }));
  const logger = base.child({ plugin: pluginLabel(options) });
  try {
    return await connect(options, checked, logger, secretValues);
  } catch (error) {
    throw maskError(error, secretValues);
  }
}

async function connect(
  options: ConnectOptions,
  checked: CheckedConnectOptions,
  logger: Logger,
  secretValues: string[],
): Promise<RemoteChannel> {
  const { startTimeoutMs, supportedVersions } = checked;
  const started = Date.now();
  const remaining = () => Math.max(1, startTimeoutMs - (Date.now() - started));
  const commandLine = describeCommand(options);

  const { proc, clientCert } = await startPlugin(options, checked, logger);

  let clients: PluginClients | undefined;
  const stop = async () => {
    clients?.close();
    await stopProcess(proc.child, proc.exited);
  };
  const fail = async (message: string, hint: string, cause?: unknown): Promise<ChannelError> => {
    await stop();
    const output = proc.stderrTail();
    return new PluginStartError(`${commandLine}: ${message}${output ? `\nplugin stderr:\n${output}` : ""}`, {
      cause,
      hint,
    });
  };

  const channelCredentials = await credentialsFor(proc.line.serverCert, clientCert, fail);
  const target = proc.line.network === "unix" ? `unix:${proc.line.address}` : proc.line.address;
  clients = createClients(target, channelCredentials);

  try {
    await callHealth(clients, remaining());
  } catch (error) {
    throw await fail(
      `health check on ${proc.line.address} failed: ${(error as Error).message}`,
      "the plugin printed its handshake line but does not answer grpc.health.v1 there; check that it serves on the address it prints",
      error,
    );
  }

  let handshake: HandshakeResponse;
  try {
    const request = handshakeRequest(options, checked, proc.line.interfaceVersion);
    handshake = await unaryCall(clients.channel, "handshake", request, { timeoutMs: remaining() });
  } catch (error) {
    throw await handshakeFailure(error, { proc, commandLine, startTimeoutMs, supportedVersions, stop, fail });
  }
  logger.info("plugin ready", {
    name: handshake.name,
    version: handshake.version,
    pid: proc.child.pid,
    startMs: Date.now() - started,
  });
  return new RemoteChannel({
    proc,
    clients,
    handshake,
    logger,
    shutdown: () => callShutdown(clients),
    secrets: secretValues,
  });
}

type ClientCert = { certPem: string; keyPem: string };

/** Launches the plugin process (up to its handshake line), with a fresh client certificate when AutoMTLS is on. */
async function startPlugin(
  options: ConnectOptions,
  checked: CheckedConnectOptions,
  logger: Logger,
): Promise<{ proc: PluginProcess; clientCert: ClientCert | undefined }> {
  let clientCert: ClientCert | undefined;
  if (checked.autoMTLS) {
    const { generateCertificate } = await import("../grpc/auto-mtls.js");
    clientCert = await generateCertificate();
  }
  const proc = await launchPlugin({
    command: options.command,
    args: options.args,
    env: options.env,
    cwd: options.cwd,
    startTimeoutMs: checked.startTimeoutMs,
    supportedVersions: checked.supportedVersions,
    transport: checked.transport,
    clientCertPem: clientCert?.certPem,
    logger,
  });
  return { proc, clientCert };
}

/** The Handshake RPC's request: the versions the host speaks, the plugin's config and secrets, and who the host is. */
function handshakeRequest(
  options: ConnectOptions,
  checked: CheckedConnectOptions,
  interfaceVersion: number,
): HandshakeRequest {
  return {
    interfaceVersion,
    supportedVersions: [...checked.supportedVersions],
    config: checked.config,
    secrets: checked.secrets,
    hostName: options.hostName ?? "errand",
    hostVersion: options.hostVersion ?? "",
  };
}

/** Insecure without AutoMTLS; with it, TLS both ways with the plugin's certificate from its handshake line. */
async function credentialsFor(
  serverCert: string | undefined,
  clientCert: ClientCert | undefined,
  fail: (message: string, hint: string, cause?: unknown) => Promise<ChannelError>,
): Promise<ChannelCredentials> {
  if (!clientCert) return grpcCredentials.createInsecure();
  const upgrade =
    "serve the plugin with an SDK that supports go-plugin's AutoMTLS (PLUGIN_CLIENT_CERT), or pass autoMTLS: false";
  if (!serverCert) throw await fail("AutoMTLS was requested but the handshake line carries no certificate", upgrade);
  const { certificateFieldToPem } = await import("../grpc/auto-mtls.js");
  let serverPem: string;
  try {
    serverPem = certificateFieldToPem(serverCert);
  } catch (error) {
    throw await fail("the handshake line's certificate field is not a certificate", upgrade, error);
  }
  return grpcCredentials.createSsl(
    Buffer.from(serverPem),
    Buffer.from(clientCert.keyPem),
    Buffer.from(clientCert.certPem),
  );
}

// "node plugin.js" is better known by its script than by "node".
function pluginLabel(options: ConnectOptions): string {
  const command = basename(options.command);
  const script = options.args?.[0];
  return /^(node|bun|deno)(\.exe)?$/.test(command) && script ? basename(script) : command;
}
