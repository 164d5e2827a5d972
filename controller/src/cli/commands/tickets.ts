import { Command, Option } from "commander";

/** Options of `errand tickets poll`. */
export interface PollCommandOptions {
  config?: string;
  json?: boolean;
  dryRun?: boolean;
}

/** `errand tickets poll --dry-run`: what the next poll would pick up, and why each other ticket is skipped. */
export function createTicketsCommand(): Command {
  const tickets = new Command("tickets").description("the ticket source polled by the controller (ticketing:)");
  tickets.addCommand(
    new Command("poll")
      .description("poll the ticket source once and show what it would pick up and why each other ticket is skipped")
      .option("-c, --config <file>", "configuration file (default: ./errand.yaml when it exists)")
      .addOption(
        new Option(
          "--dry-run",
          "write nothing: no run, no label, no comment (required: a real poll is the controller's job)",
        ).makeOptionMandatory(),
      )
      .option("--json", "print JSON for scripts")
      .action(async (options: PollCommandOptions) => {
        const { pollDryRun } = await import("./tickets-action.js");
        process.exitCode = await pollDryRun(options);
      }),
  );
  return tickets;
}
