import { Command, InvalidArgumentError, Option } from "commander";

/** Options of `errand webhook serve`. */
export interface ServeOptions {
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
 * Logs go to stderr, so stdout can be piped into a script. If stdout breaks
 * (its reader exited), tickets are refused with 503 and the server stops.
 */
export function createWebhookServeCommand(): Command {
  return new Command("serve")
    .description("serve the webhook routes and print each ticket as a JSON line on stdout")
    .requiredOption("-c, --config <file>", "YAML configuration file with a webhook: section")
    .addOption(new Option("-p, --port <n>", "port to listen on (overrides webhook.port)").argParser(parsePort))
    .option("--host <address>", "address to bind (overrides webhook.host)")
    .option("--raw-event", "add the source event as raw_event to each ticket line")
    .action(async (options: ServeOptions) => {
      // Loaded on use: the config schema and the server would slow every other command's start.
      const { serve } = await import("./webhook-serve-action.js");
      process.exitCode = await serve(options);
    });
}
