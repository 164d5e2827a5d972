import { Command } from "commander";

/** Options of `errand run`. */
export interface RunOptions {
  config?: string;
}

/**
 * `errand run [--config errand.yaml]`: the controller. Logs are JSON lines
 * on stderr. SIGTERM or SIGINT stops intake, lets runs finish within
 * `ops.shutdown_grace_seconds`, then stops the rest; a second signal exits at once.
 */
export function createRunCommand(): Command {
  return new Command("run")
    .description("run the controller: intake, store, loop, engines, notifications")
    .option(
      "-c, --config <file>",
      "configuration file (default: ./errand.yaml when it exists, else the embedded defaults)",
    )
    .action(async (options: RunOptions) => {
      // Loaded on use: the controller's modules (gRPC among them) would slow every other command's start.
      const { run } = await import("./run-action.js");
      process.exitCode = await run(options);
    });
}
