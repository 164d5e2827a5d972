import { Command, InvalidArgumentError, Option } from "commander";
import { createLogger, type Logger } from "@errand/channel-sdk";
import { ConfigError } from "../../config/config-error.js";
import { loadWebhookConfig } from "../../config/load-config.js";
import { createBufferedWriter } from "../../logging/buffered-writer.js";
import type { WebhookConfig } from "../../config/webhook-config.js";
import { createWebhookServer } from "../../webhook/server.js";
import { toSpecTicket } from "../../webhook/spec-ticket.js";

interface ServeOptions {
  config: string;
  port?: number;
  host?: string;
  rawEvent?: boolean;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError("give a port from 0 to 65535");
  return port;
}

/**
 * `errand webhook serve --config <file> [--port N]`: runs only the intake and
 * writes each ticket to stdout as one JSON line `{"source":…,"ticket":{…}}`.
 * Logs go to stderr, so stdout can be piped into a script.
 */
export function createWebhookServeCommand(): Command {
  return new Command("serve")
    .description("serve the webhook routes and print each ticket as a JSON line on stdout")
    .requiredOption("-c, --config <file>", "YAML configuration file with a webhook: section")
    .addOption(new Option("-p, --port <n>", "port to listen on (overrides webhook.port)").argParser(parsePort))
    .option("--host <address>", "address to bind (overrides webhook.host)")
    .option("--raw-event", "add the source event as raw_event to each ticket line")
    .action(async (options: ServeOptions) => {
      process.exitCode = await serve(options);
    });
}

async function serve(options: ServeOptions): Promise<number> {
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
    process.stderr.write(`errand: webhook.enabled is false in ${options.config}; set webhook.enabled: true to serve webhooks\n`);
    return 1;
  }
  if (options.host !== undefined) config.host = options.host;
  const secrets = [...Object.values(config.secrets), config.generic?.secret].filter((s): s is string => !!s);
  const write = createBufferedWriter();
  process.once("exit", () => write.flush());
  const logger = createLogger({ fields: { component: "webhook" }, secrets, write });
  for (const warning of warnings) logger.warn(warning);

  const server = createWebhookServer({
    config,
    logger,
    onTickets: (tickets, ctx) => writeLines(tickets.map((t) => JSON.stringify({ source: ctx.source, ticket: toSpecTicket(t, options.rawEvent) }))),
    onApprovals: (approvals, ctx) => {
      for (const a of approvals) {
        logger.info("approval callback received", { source: ctx.source, delivery_id: ctx.deliveryId, action_id: a.actionId, value: a.value, user_id: a.userId });
      }
    },
  });
  try {
    await server.start(options.port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    process.stderr.write(`errand: cannot listen on ${config.host}:${options.port ?? config.port} (${code ?? String(error)}); pick another port with --port or webhook.port\n`);
    return 1;
  }
  await waitForSignal(logger);
  await server.stop();
  return 0;
}

/** Resolves once the lines are handed to the stdout pipe, so 200 means "printed". */
function writeLines(lines: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(`${lines.join("\n")}\n`, (error) => (error ? reject(error) : resolve()));
  });
}

function waitForSignal(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      logger.info("shutting down", { signal });
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
      resolve();
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  });
}
