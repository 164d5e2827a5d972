import { readFileSync } from "node:fs";
import { Command } from "commander";
import { createChannelsCommand } from "./commands/channels.js";
import { createConfigCommand } from "./commands/config-command.js";
import { createRunCommand } from "./commands/run.js";
import { createRunsCommand } from "./commands/runs.js";
import { createTicketsCommand } from "./commands/tickets.js";
import { createWebhookCommand } from "./commands/webhook.js";

function packageVersion(): string {
  const url = new URL("../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
}

/**
 * The `errand` command line. Each area is a subcommand built in its own file
 * under commands/ (`run`, `runs`, `webhook`, ...).
 */
export function createProgram(): Command {
  const program = new Command("errand")
    .description("Errand controller: agent orchestration from tickets")
    .version(packageVersion())
    .showHelpAfterError()
    // Lets a subcommand own options its parent also has (`runs show <id> --config f`).
    .enablePositionalOptions();
  program.addCommand(createRunCommand());
  program.addCommand(createConfigCommand());
  program.addCommand(
    createChannelsCommand({ loadConfig: async (file) => (await import("./load-for-cli.js")).loadForCli(file, true) }),
  );
  program.addCommand(createRunsCommand());
  program.addCommand(createTicketsCommand());
  program.addCommand(createWebhookCommand());
  return program;
}
