import { Server, ServerCredentials, type ServiceDefinition } from "@grpc/grpc-js";
import { type ChannelDefinition, defineChannel, interfaceVersionsOf } from "../channel.js";
import { CancelledError } from "../errors.js";
import { createLogger, type Logger } from "../logger.js";
import { ChannelRuntime } from "../runtime/channel-runtime.js";
import { guardStderr, writeStderr } from "../stderr-sink.js";
import { CORE_PROTOCOL_VERSION } from "../version.js";
import { bindServer } from "./bind-server.js";
import { CallTracker } from "./call-tracker.js";
import { deferChannelService } from "./deferred-channel-service.js";
import { CONTROLLER_SERVICE, controllerService, HEALTH_SERVICE } from "./early-services.js";
import { readEnvironmentConfig, readEnvironmentSecrets } from "./environment-secrets.js";
import { healthService } from "./health-service.js";
import { type PluginEnvironment, PluginEnvironmentError, readPluginEnvironment } from "./plugin-env.js";
import type { ServiceHost } from "./plugin-services.js";
import { guardStdout, writeHandshakeLine } from "./stdout-guard.js";
import { watchParent } from "./watch-parent.js";

/** Tuning of {@link serve}; the defaults suit every host. */
export interface ServeOptions {
  /** How long in-flight calls get to finish after shutdown begins; default 500 ms. */
  gracePeriodMs?: number;
  /** How often to check that the host is still alive; default 500 ms. */
  parentCheckIntervalMs?: number;
}

/**
 * Serves a channel as a plugin process: checks the magic cookie, listens on a
 * private Unix socket (or 127.0.0.1 TCP when asked), optionally with
 * go-plugin's AutoMTLS, prints the single handshake line on stdout and
 * serves until the host calls Shutdown, sends SIGTERM or dies.
 *
 * A start-up problem (no magic cookie, an invalid variable such as a
 * PLUGIN_CLIENT_CERT that is not a PEM certificate or a
 * PLUGIN_UNIX_SOCKET_DIR that is missing or too long for a socket path)
 * is explained on stderr, naming the variable, and the process exits 1.
 * Logging never crashes the plugin, also not once the host is gone and
 * stderr with it, and the socket directory is removed on every exit.
 *
 * Call it once, at the top level of the plugin's entry module.
 */
export async function serve<State>(definition: ChannelDefinition<State>, options: ServeOptions = {}): Promise<void> {
  guardStdout();
  guardStderr();
  defineChannel(definition);
  const supported = interfaceVersionsOf(definition as ChannelDefinition<unknown>);
  let read: ReturnType<typeof readEnvironment>;
  try {
    read = readEnvironment(supported);
  } catch (error) {
    return exitOnEnvironmentError(error);
  }
  const { env, secrets } = read;

  const logger = createLogger({
    fields: { channel: definition.name, pid: process.pid },
    redact: () => Object.values(runtimeSecrets()),
  });
  const runtime = new ChannelRuntime(definition, {}, secrets, logger);
  const runtimeSecrets = () => ({ ...secrets, ...runtime.currentSecrets });

  let shuttingDown = false;
  const server = new Server({ "grpc.max_receive_message_length": 16 * 1024 * 1024 });
  const gracePeriodMs = options.gracePeriodMs ?? 500;
  const calls = new CallTracker();
  const health = healthService(() => shuttingDown);

  const shutdown = (reason: string, exitCode = 0) => {
    if (shuttingDown) return;
    shuttingDown = true;
    health.shutdown();
    logger.info("shutting down", { reason, activeCalls: runtime.activeCalls });
    const cancelled = new CancelledError(`channel ${definition.name} is shutting down: ${reason}`);
    // In-flight calls learn of the shutdown at once through their signals.
    runtime.abortAll(cancelled);
    // The server keeps listening until the channel is closed, so a host that
    // asks meanwhile hears NOT_SERVING from health and CANCELLED from calls
    // rather than a refused connection. The exit hook removes the socket directory.
    void closeAll(calls, runtime, cancelled, server, gracePeriodMs).finally(() => process.exit(exitCode));
  };

  const host = {
    runtime,
    definition,
    logger,
    environmentSecrets: secrets,
    requestShutdown: (reason: string) => shutdown(reason),
    isShuttingDown: () => shuttingDown,
    secrets: () => Object.values(runtimeSecrets()),
    calls,
  };
  const channelService = addServices(server, host, health.implementation, shutdown);

  let tls: ServingCredentials;
  try {
    tls = await servingCredentials(env.clientCertPem);
  } catch (error) {
    return exitOnEnvironmentError(error);
  }
  const { credentials, certField } = tls;

  let bound;
  try {
    bound = await bindServer(server, env, credentials);
  } catch (error) {
    if (error instanceof PluginEnvironmentError) return exitOnEnvironmentError(error);
    logger.error("could not listen", { error });
    process.exit(1);
  }

  listenToProcess(logger, shutdown);
  watchParent(options.parentCheckIntervalMs ?? 500, () => shutdown("the host process exited"));

  const fields = [CORE_PROTOCOL_VERSION, env.interfaceVersion, bound.network, bound.address, "grpc"];
  if (certField) fields.push(certField);
  logger.debug("serving", { network: bound.network, address: bound.address, tls: Boolean(certField) });
  writeHandshakeLine(fields.join("|"));
  // The channel's codecs load now, while the host connects and checks health.
  channelService.load();
}

/** The plugin's variables and secrets; the config is read again at the first call, but checked now so a bad one stops the start. */
function readEnvironment(supported: readonly number[]): { env: PluginEnvironment; secrets: Record<string, string> } {
  const env = readPluginEnvironment(process.env, supported);
  const secrets = readEnvironmentSecrets(process.env);
  readEnvironmentConfig(process.env);
  return { env, secrets };
}

interface ServingCredentials {
  credentials: ServerCredentials;
  /** The handshake line's certificate field under AutoMTLS. */
  certField: string | undefined;
}

/** Insecure without PLUGIN_CLIENT_CERT; with it, AutoMTLS with a fresh certificate of the plugin's own. */
async function servingCredentials(clientCertPem: string | undefined): Promise<ServingCredentials> {
  if (!clientCertPem) return { credentials: ServerCredentials.createInsecure(), certField: undefined };
  const { generateCertificate } = await import("../grpc/auto-mtls.js");
  const cert = await generateCertificate();
  try {
    const credentials = ServerCredentials.createSsl(
      Buffer.from(clientCertPem),
      [{ private_key: Buffer.from(cert.keyPem), cert_chain: Buffer.from(cert.certPem) }],
      true,
    );
    return { credentials, certField: cert.certBase64 };
  } catch (error) {
    throw new PluginEnvironmentError(
      `PLUGIN_CLIENT_CERT cannot be used for AutoMTLS (${String(error)}); the host must send its client certificate as PEM, or leave the variable unset`,
    );
  }
}

/** The process's signals and last-resort error events, as a plugin answers them. */
function listenToProcess(logger: Logger, shutdown: (reason: string) => void): void {
  // SIGINT reaches the whole process group when a user presses Ctrl-C at the
  // host; like go-plugin plugins we leave it to the host to shut us down.
  process.on("SIGINT", () => logger.debug("ignoring SIGINT; the host decides when the plugin stops"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  // SIGHUP (the host's terminal or session went away) would otherwise end the
  // process without its exit handlers and leave the socket directory behind.
  process.on("SIGHUP", () => shutdown("SIGHUP"));
  process.on("unhandledRejection", (error) => logger.error("unhandled promise rejection in the channel", { error }));
  // A monitor, not a handler: what follows an uncaught exception (exit 1, or
  // the author's own handler) stays as Node and the author decide; the host
  // gets a JSON line it can forward.
  process.on("uncaughtExceptionMonitor", (error) => logger.error("uncaught exception in the channel", { error }));
}

/** The channel's service (its codecs loaded by `load()`), gRPC health, and go-plugin's controller (its Shutdown). */
function addServices(
  server: Server,
  host: ServiceHost<unknown>,
  health: ReturnType<typeof healthService>["implementation"],
  shutdown: (reason: string) => void,
): { load(): void } {
  // Coded by hand, these answer without the protobuf runtime (see early-services.ts).
  server.addService(HEALTH_SERVICE as unknown as ServiceDefinition, health);
  server.addService(
    CONTROLLER_SERVICE as unknown as ServiceDefinition,
    controllerService((reason) => shutdown(reason)),
  );
  return deferChannelService(server, host);
}

/** Lets the calls under way finish within the grace period, closes the channel, then the server. */
async function closeAll(
  calls: CallTracker,
  runtime: ChannelRuntime<unknown>,
  cancelled: CancelledError,
  server: Server,
  gracePeriodMs: number,
): Promise<void> {
  await within(calls.idle(), gracePeriodMs);
  await within(runtime.close(cancelled), 300);
  await within(new Promise<void>((resolve) => server.tryShutdown(() => resolve())), 100);
  server.forceShutdown();
}

/** Settles when `work` does or after `ms`, whichever is first; never rejects. */
function within(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, ms);
    work.then(done, done);
  });
}

/** A start-up problem the host's user must fix: explained in plain text on stderr (the host shows its tail), exit 1. */
function exitOnEnvironmentError(error: unknown): never {
  if (!(error instanceof PluginEnvironmentError)) throw error;
  writeStderr(error.message.endsWith("\n") ? error.message : `${error.message}\n`);
  process.exit(1);
}
