import { Command } from "commander";
import type { CommandOutput } from "./config.js";

function emit(output: CommandOutput): void {
  process.stdout.write(output.stdout);
  process.stderr.write(output.stderr);
  process.exitCode = output.exitCode;
}

// The bodies (zod, the schema, the secret store) load on use, so that other commands start without them.
/** `errand config check|schema`. */
export function createConfigCommand(): Command {
  const command = new Command("config").description("check the configuration file, or print its JSON Schema");
  command
    .command("check")
    .description(
      "validate errand.yaml, resolve its secrets, print it resolved with secrets masked (exit 1 on problems)",
    )
    .option("-c, --config <file>", "configuration file (default: errand.yaml here, else the embedded defaults)")
    .option("--json", "print one JSON object { ok, file, config, warnings, problems }")
    .action(async (options: { config?: string; json?: boolean }) =>
      emit(await (await import("./config.js")).runConfigCheck(options)),
    );
  command
    .command("schema")
    .description("print the JSON Schema of errand.yaml (for editors: see docs/configuration.md)")
    .action(async () => emit((await import("./config.js")).runConfigSchema()));
  return command;
}
