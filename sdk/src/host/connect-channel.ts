import { basename } from "node:path";
import { credentials as grpcCredentials, status as GrpcStatus, type ServiceError } from "@grpc/grpc-js";
import type { Channel, ChannelConfig } from "../channel.js";
import { PluginStartError, toChannelError, VersionMismatchError } from "../errors.js";
import { createLogger, type Logger } from "../logger.js";
import { SUPPORTED_INTERFACE_VERSIONS } from "../version.js";
import { fromServiceError } from "../grpc/status-mapping.js";
import { callHealth, callShutdown, createClients, unaryCall } from "./grpc-clients.js";
import { launchPlugin, type PluginExit } from "./plugin-process.js";
import { RemoteChannel } from "./remote-channel.js";

/** Options of {@link connectChannel}. */
export interface ConnectOptions {
  /** The plugin executable (a package bin, `node`, a Go binary, ...). Run directly, never through a shell. */
  command: string;
  args?: readonly string[];
  /** Extra environment for the plugin; the host's own is inherited. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** The channel's `config` object, sent in the Handshake. */
  config?: ChannelConfig;
  /** Resolved secrets by name, sent once in the Handshake. */
  secrets?: Record<string, string>;
  /** Time allowed from spawn to a completed Handshake; default 10 000 ms. */
  startTimeoutMs?: number;
  /** Interface versions this host accepts; default the SDK's. */
  supportedVersions?: readonly number[];
  /** Where the plugin listens; default a Unix socket. */
  transport?: "unix" | "tcp";
  /** go-plugin's AutoMTLS; default on for TCP, off for Unix sockets (already private to the user). */
  autoMTLS?: boolean;
  /** Receives the host's and the plugin's log records; default JSON on stderr. */
  logger?: Logger;
  /** Sent in the Handshake for the plugin's logs. */
  hostName?: string;
  hostVersion?: string;
}

/** A channel served by a plugin process. */
export type { RemoteChannel };
export type { PluginExit };

/**
 * Launches a plugin process and completes the whole handshake: the stdout
 * line, a health check, and the Handshake RPC with config and secrets. The
 * result has the same {@link Channel} shape as an in-process channel, plus
 * `close()` and exit events.
 */
export async function connectChannel(options: ConnectOptions): Promise<RemoteChannel> {
  const startTimeoutMs = options.startTimeoutMs ?? 10_000;
  const supportedVersions = options.supportedVersions ?? SUPPORTED_INTERFACE_VERSIONS;
  const transport = options.transport ?? "unix";
  const autoMTLS = options.autoMTLS ?? transport === "tcp";
  const logger = (options.logger ?? createLogger()).child({ plugin: pluginLabel(options) });
  const started = Date.now();
  const remaining = () => Math.max(1, startTimeoutMs - (Date.now() - started));

  let clientCert: { certPem: string; keyPem: string } | undefined;
  if (autoMTLS) {
    const { generateCertificate } = await import("../grpc/auto-mtls.js");
    clientCert = await generateCertificate();
  }
  const proc = await launchPlugin({
    command: options.command,
    args: options.args,
    env: options.env,
    cwd: options.cwd,
    startTimeoutMs,
    supportedVersions,
    transport,
    clientCertPem: clientCert?.certPem,
    logger,
  });

  const fail = (message: string, cause?: unknown, hint?: string) => {
    proc.child.kill("SIGKILL");
    const output = proc.stderrTail();
    return new PluginStartError(`${options.command}: ${message}${output ? `\nplugin stderr:\n${output}` : ""}`, { cause, hint });
  };

  let channelCredentials = grpcCredentials.createInsecure();
  if (clientCert) {
    if (!proc.line.serverCert) throw fail("AutoMTLS was requested but the handshake line carries no certificate", undefined, "serve the plugin with an SDK that supports PLUGIN_CLIENT_CERT");
    const { certificateFieldToPem } = await import("../grpc/auto-mtls.js");
    let serverPem: string;
    try {
      serverPem = certificateFieldToPem(proc.line.serverCert);
    } catch (error) {
      throw fail("the handshake line's certificate field is not a certificate", error);
    }
    channelCredentials = grpcCredentials.createSsl(Buffer.from(serverPem), Buffer.from(clientCert.keyPem), Buffer.from(clientCert.certPem));
  }
  const target = proc.line.network === "unix" ? `unix:${proc.line.address}` : proc.line.address;
  const clients = createClients(target, channelCredentials);

  try {
    await callHealth(clients, remaining());
  } catch (error) {
    clients.close();
    throw fail(`health check failed: ${(error as Error).message}`, error);
  }

  let handshake;
  try {
    handshake = await unaryCall(clients.channel, "handshake", {
      interfaceVersion: proc.line.interfaceVersion,
      supportedVersions: [...supportedVersions],
      config: options.config ?? {},
      secrets: options.secrets ?? {},
      hostName: options.hostName ?? "errand",
      hostVersion: options.hostVersion ?? "",
    }, { timeoutMs: remaining() });
  } catch (error) {
    clients.close();
    const serviceError = error as ServiceError;
    if (serviceError.code === GrpcStatus.FAILED_PRECONDITION && /interface version/.test(serviceError.details ?? "")) {
      proc.child.kill("SIGKILL");
      throw new VersionMismatchError(
        `${options.command} refused interface version ${proc.line.interfaceVersion} (this host supports ${supportedVersions.join(", ")}): ${serviceError.details}`,
        { hint: "upgrade the older side so both share an interface version", cause: error },
      );
    }
    proc.child.kill("SIGKILL");
    throw serviceError.code === undefined ? toChannelError(error) : fromServiceError(serviceError, `${options.command}: Handshake`);
  }
  logger.info("plugin ready", { name: handshake.name, version: handshake.version, pid: proc.child.pid, startMs: Date.now() - started });
  return new RemoteChannel({ proc, clients, handshake, logger, shutdown: () => callShutdown(clients) });
}

// "node plugin.js" is better known by its script than by "node".
function pluginLabel(options: ConnectOptions): string {
  const command = basename(options.command);
  const script = options.args?.[0];
  return /^(node|bun|deno)(\.exe)?$/.test(command) && script ? basename(script) : command;
}
