import { Command } from "commander";
import { CLI_VERSION } from "../util/version.js";
import { LICENSES } from "./licenses.js";
import { TEMPLATE_IDS } from "./templates.js";

/** What the user asked for on the command line. */
export interface CreateFlags {
  dir?: string;
  name?: string;
  description?: string;
  packageName?: string;
  author?: string;
  license?: string;
  template?: string;
  yes: boolean;
  install: boolean;
  force: boolean;
  sdk?: string;
}

/**
 * Whether the user's `--yes` went to npm instead: `npm init channel x --yes` takes `--yes` as its own setting and
 * runs create-channel without it, telling it only through the environment (`npm_command=init`,
 * `npm_config_yes=true`). `npx --yes create-channel` (`npm_command=exec`) is left out: there `--yes` answers npx's
 * "Ok to proceed?" about installing create-channel, not this program's questions.
 */
export function yesGivenToNpmInit(env: NodeJS.ProcessEnv): boolean {
  return env.npm_command === "init" && env.npm_config_yes === "true";
}

/**
 * Parses create-channel's arguments (and a `--yes` that `npm init` kept, see {@link yesGivenToNpmInit}); throws
 * CommanderError on --help, --version and usage errors.
 */
export function parseCreateArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): CreateFlags {
  const program = new Command("create-channel")
    .description("Scaffold an Errand notification channel plugin package.")
    .version(CLI_VERSION)
    .argument("[dir]", "directory to create")
    .option("--name <name>", "channel name (notifications.channels[].backend)")
    .option("--description <text>", "package description")
    .option("--package-name <name>", "npm package name (default errand-channel-<name>)")
    .option("--author <name>", "package author (also the copyright holder in LICENSE)")
    .option("--license <id>", `package license, written to LICENSE: ${LICENSES.join(", ")} (default ${LICENSES[0]})`)
    .option("--template <id>", `starting point: ${TEMPLATE_IDS.join(", ")}`)
    .option("-y, --yes", "ask nothing; use defaults for what is not given", false)
    .option("--no-install", "do not run npm install")
    .option(
      "--force",
      "write into a non-empty directory: the template's files replace files of the same paths; every other file (.git too) is kept",
      false,
    )
    .option("--sdk <spec>", "npm spec of the @errand/channel-sdk dependency (a version range, file: path or tarball)")
    .addHelpText(
      "after",
      "\nExamples:\n  npx create-channel my-channel\n  npx create-channel team-alerts --yes --template webhook --name team_alerts\n  npm init channel team-alerts -- --yes --template webhook   (npm init keeps the flags before --)\n  npx create-channel update team-alerts --dry-run   # bring a scaffold to this version's template (update --help)\n\nExit codes: 0 created, 1 failed (a failed npm install keeps the files and says how to finish), 2 invalid input, 130/143 stopped by Ctrl-C/SIGTERM (nothing is left behind unless the files were already moved in).",
    )
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  program.parse(argv, { from: "user" });
  const o = program.opts<Omit<CreateFlags, "dir">>();
  return { ...o, yes: o.yes || yesGivenToNpmInit(env), dir: program.args[0] };
}
