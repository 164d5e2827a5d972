import { rm } from "node:fs/promises";
import { Server, ServerCredentials } from "@grpc/grpc-js";
import { defineChannel, interfaceVersionsOf, type ChannelDefinition } from "../channel.js";
import { CancelledError } from "../errors.js";
import { NotificationChannelService } from "../gen/errand/v1/notifications.js";
import { HealthService } from "../gen/grpc/health/v1/health.js";
import { GRPCControllerService } from "../gen/plugin/grpc_controller.js";
import { createLogger, type Logger } from "../logger.js";
import { ChannelRuntime } from "../runtime/channel-runtime.js";
import { CORE_PROTOCOL_VERSION } from "../version.js";
import { bindServer } from "./bind-server.js";
import { readEnvironmentSecrets } from "./environment-secrets.js";
import { PluginEnvironmentError, readPluginEnvironment } from "./plugin-env.js";
import { controllerService, healthService, notificationChannelService } from "./plugin-services.js";
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
 * Call it once, at the top level of the plugin's entry module.
 */
export async function serve<State>(definition: ChannelDefinition<State>, options: ServeOptions = {}): Promise<void> {
  guardStdout();
  defineChannel(definition);
  const supported = interfaceVersionsOf(definition as ChannelDefinition<unknown>);
  let env;
  try {
    env = readPluginEnvironment(process.env, supported);
  } catch (error) {
    if (!(error instanceof PluginEnvironmentError)) throw error;
    process.stderr.write(error.message.endsWith("\n") ? error.message : `${error.message}\n`);
    process.exit(1);
  }

  const secrets = readEnvironmentSecrets(process.env);
  const logger = createLogger({
    fields: { channel: definition.name, pid: process.pid },
    redact: () => Object.values(runtimeSecrets()),
  });
  const runtime = new ChannelRuntime(definition, {}, secrets, logger);
  const runtimeSecrets = () => ({ ...secrets, ...runtime.currentSecrets });

  let shuttingDown = false;
  const server = new Server({ "grpc.max_receive_message_length": 16 * 1024 * 1024 });
  const gracePeriodMs = options.gracePeriodMs ?? 500;
  let cleanupDir: string | undefined;

  const shutdown = (reason: string, exitCode = 0) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info("shutting down", { reason, activeCalls: runtime.activeCalls });
    const forced = setTimeout(() => finish(), gracePeriodMs);
    const finish = () => {
      clearTimeout(forced);
      server.forceShutdown();
      void Promise.race([
        runtime.close(new CancelledError(`channel ${definition.name} is shutting down: ${reason}`)),
        new Promise((resolve) => setTimeout(resolve, 300)),
      ])
        .then(() => (cleanupDir ? rm(cleanupDir, { recursive: true, force: true }) : undefined))
        .finally(() => process.exit(exitCode));
    };
    // In-flight calls learn of the shutdown at once through their signals.
    runtime.abortAll(new CancelledError(`channel ${definition.name} is shutting down: ${reason}`));
    server.tryShutdown(() => finish());
  };

  const host = {
    runtime,
    definition,
    logger,
    environmentSecrets: secrets,
    requestShutdown: (reason: string) => shutdown(reason),
    isShuttingDown: () => shuttingDown,
  };
  server.addService(NotificationChannelService, notificationChannelService(host));
  server.addService(HealthService, healthService(() => shuttingDown));
  server.addService(GRPCControllerService, controllerService((reason) => shutdown(reason)));

  let credentials = ServerCredentials.createInsecure();
  let certField: string | undefined;
  if (env.clientCertPem) {
    const { generateCertificate } = await import("../grpc/auto-mtls.js");
    const cert = await generateCertificate();
    credentials = ServerCredentials.createSsl(
      Buffer.from(env.clientCertPem),
      [{ private_key: Buffer.from(cert.keyPem), cert_chain: Buffer.from(cert.certPem) }],
      true,
    );
    certField = cert.certBase64;
  }

  let bound;
  try {
    bound = await bindServer(server, env, credentials);
  } catch (error) {
    logger.error("could not listen", { error });
    process.exit(1);
  }
  cleanupDir = bound.cleanupDir;

  // SIGINT reaches the whole process group when a user presses Ctrl-C at the
  // host; like go-plugin plugins we leave it to the host to shut us down.
  process.on("SIGINT", () => logger.debug("ignoring SIGINT; the host decides when the plugin stops"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("unhandledRejection", (error) => logger.error("unhandled promise rejection in the channel", { error }));
  watchParent(options.parentCheckIntervalMs ?? 500, () => shutdown("the host process exited"));

  const fields = [CORE_PROTOCOL_VERSION, env.interfaceVersion, bound.network, bound.address, "grpc"];
  if (certField) fields.push(certField);
  logger.debug("serving", { network: bound.network, address: bound.address, tls: Boolean(certField) });
  writeHandshakeLine(fields.join("|"));
}
