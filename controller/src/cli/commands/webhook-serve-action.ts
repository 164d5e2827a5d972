// The logger alone: the SDK root loads gRPC, which `webhook serve` never needs (start-up time).
import { createLogger } from "@errand/channel-sdk/logger";
import { ConfigError } from "../../config/config-error.js";
import { loadWebhookConfig } from "../../config/load-config.js";
import { createBufferedWriter } from "../../logging/buffered-writer.js";
import { toSpecTicket } from "../../runs/spec-ticket.js";
import { createWebhookServer } from "../../webhook/server.js";
import type { WebhookConfig } from "../../webhook/webhook-schema.js";
import { createLineOutput, describeFailure } from "../line-output.js";
import type { ServeOptions } from "./webhook-serve.js";

/** Exit code when stdout's reader went away: what a shell reports for a producer killed by SIGPIPE (128 + 13). */
const EXIT_STDOUT_CLOSED = 141;

/** Runs `errand webhook serve` until a signal or a broken stdout; resolves with the exit code. */
export async function serve(options: ServeOptions): Promise<number> {
  let config: WebhookConfig;
  let warnings: string[];
  try {
    ({ config, warnings } = await loadWebhookConfig(options.config));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`errand: ${error.message}\n`);
    return 1;
  }
  if (config.enabled === false) {
    process.stderr.write(
      `errand: webhook.enabled is false in ${options.config}; set webhook.enabled: true to serve webhooks\n`,
    );
    return 1;
  }
  if (options.host !== undefined) config.host = options.host;
  const secrets = [...Object.values(config.secrets), config.generic?.secret].filter((s): s is string => !!s);
  const write = createBufferedWriter();
  process.once("exit", () => write.flush());
  // With stderr gone there is nowhere to log to; tickets on stdout can still flow, so this must not crash.
  process.stderr.on("error", () => {});
  const logger = createLogger({ fields: { component: "webhook" }, secrets, write });
  for (const warning of warnings) logger.warn(warning);
  const output = createLineOutput(process.stdout);
  void output.broken.then((error) =>
    logger.error(`${describeFailure(error)}; stopping: tickets are no longer accepted`, { error }),
  );

  const server = createWebhookServer({
    config,
    logger,
    // Resolves once the lines are handed to stdout, so 200 means "printed"; a rejection is answered 503.
    onTickets: (tickets, ctx) =>
      output.write(
        tickets.map((t) => JSON.stringify({ source: ctx.source, ticket: toSpecTicket(t, options.rawEvent) })),
      ),
    onApprovals: (approvals, ctx) => {
      for (const a of approvals) {
        logger.info("approval callback received", {
          source: ctx.source,
          delivery_id: ctx.deliveryId,
          action_id: a.actionId,
          value: a.value,
          user_id: a.userId,
        });
      }
    },
  });
  try {
    await server.start(options.port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    process.stderr.write(
      `errand: cannot listen on ${config.host}:${options.port ?? config.port} (${code ?? String(error)}); pick another port with --port or webhook.port\n`,
    );
    return 1;
  }
  const reason = await waitForStop(output.broken);
  if (typeof reason === "string") logger.info("shutting down", { signal: reason });
  await server.stop();
  // Also when stdout broke during a shutdown a signal began: the reader still went away before the end.
  if (output.failure === undefined) return 0;
  return (output.failure as NodeJS.ErrnoException).code === "EPIPE" ? EXIT_STDOUT_CLOSED : 1;
}

/** Resolves with the signal or the stdout failure that ends the run. */
function waitForStop(broken: Promise<Error>): Promise<NodeJS.Signals | Error> {
  return new Promise((resolve) => {
    // Listening only until the first stop cause lets a second SIGTERM or SIGINT end a slow shutdown at once.
    const stop = (reason: NodeJS.Signals | Error) => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      resolve(reason);
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
    void broken.then(stop);
  });
}
