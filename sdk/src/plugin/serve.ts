import { Server, ServerCredentials } from "@grpc/grpc-js";
import { type ChannelDefinition, defineChannel, interfaceVersionsOf } from "../channel.js";
import { CancelledError } from "../errors.js";
import { HealthService } from "../gen/grpc/health/v1/health.js";
import { GRPCControllerService } from "../gen/plugin/grpc_controller.js";
import { createLogger } from "../logger.js";
import { ChannelRuntime } from "../runtime/channel-runtime.js";
import { guardStderr, writeStderr } from "../stderr-sink.js";
import { CORE_PROTOCOL_VERSION } from "../version.js";
import { bindServer } from "./bind-server.js";
import { readEnvironmentConfig, readEnvironmentSecrets } from "./environment-secrets.js";
import { healthService } from "./health-service.js";
import { PluginEnvironmentError, readPluginEnvironment } from "./plugin-env.js";
import { CallTracker, controllerService, notificationChannelService } from "./plugin-services.js";
import { decodingGuardedService } from "./request-decoding.js";
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
  let env;
  let secrets: Record<string, string>;
  try {
    env = readPluginEnvironment(process.env, supported);
    secrets = readEnvironmentSecrets(process.env);
    // Read again at the first call when no Handshake brings a config; checked now so a bad one stops the start.
    readEnvironmentConfig(process.env);
  } catch (error) {
    return exitOnEnvironmentError(error);
  }

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
    void (async () => {
      await within(calls.idle(), gracePeriodMs);
      await within(runtime.close(cancelled), 300);
      await within(new Promise<void>((resolve) => server.tryShutdown(() => resolve())), 100);
      server.forceShutdown();
    })().finally(() => process.exit(exitCode));
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
  server.addService(decodingGuardedService(), notificationChannelService(host));
  server.addService(HealthService, health.implementation);
  server.addService(
    GRPCControllerService,
    controllerService((reason) => shutdown(reason)),
  );

  let credentials = ServerCredentials.createInsecure();
  let certField: string | undefined;
  if (env.clientCertPem) {
    const { generateCertificate } = await import("../grpc/auto-mtls.js");
    const cert = await generateCertificate();
    try {
      credentials = ServerCredentials.createSsl(Buffer.from(env.clientCertPem), [{ private_key: Buffer.from(cert.keyPem), cert_chain: Buffer.from(cert.certPem) }], true);
    } catch (error) {
      return exitOnEnvironmentError(new PluginEnvironmentError(`PLUGIN_CLIENT_CERT cannot be used for AutoMTLS (${String(error)}); the host must send its client certificate as PEM, or leave the variable unset`));
    }
    certField = cert.certBase64;
  }

  let bound;
  try {
    bound = await bindServer(server, env, credentials);
  } catch (error) {
    if (error instanceof PluginEnvironmentError) return exitOnEnvironmentError(error);
    logger.error("could not listen", { error });
    process.exit(1);
  }

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
  watchParent(options.parentCheckIntervalMs ?? 500, () => shutdown("the host process exited"));

  const fields = [CORE_PROTOCOL_VERSION, env.interfaceVersion, bound.network, bound.address, "grpc"];
  if (certField) fields.push(certField);
  logger.debug("serving", { network: bound.network, address: bound.address, tls: Boolean(certField) });
  writeHandshakeLine(fields.join("|"));
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
