import { Command, CommanderError } from "commander";
import { guardStdio } from "../util/stdio.js";
import { CLI_VERSION } from "../util/version.js";
import { lintCommand } from "./lint-command.js";
import { parseTimeoutMs, sendCommand } from "./send-command.js";
import { stoppingPluginsOnSignal } from "./stop-on-signal.js";
import { testCommand } from "./test-command.js";
import { parseConcurrency, parseStartTimeout } from "./test-options.js";

/** Splits `argv` at the first `--`: what follows is a plugin command. */
function splitCommand(argv: string[]): [string[], string[]] {
  const at = argv.indexOf("--");
  return at === -1 ? [argv, []] : [argv.slice(0, at), argv.slice(at + 1)];
}

/** The `channel` CLI; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  guardStdio();
  const [own, command] = splitCommand(argv);
  let exitCode = 0;
  const program = new Command("channel")
    .description("Test, lint and send to Errand notification channel plugins.")
    .version(CLI_VERSION)
    .exitOverride()
    .showHelpAfterError();

  const setExit = (code: number) => {
    exitCode = code;
  };
  addTestCommand(program, command, setExit);
  addSendCommand(program, command, setExit);
  addLintCommand(program, setExit);

  try {
    await program.parseAsync(own, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.exitCode === 0
        ? 0
        : 2;
    }
    throw error;
  }
  return exitCode;
}

/** `channel test`: the conformance checks; `command` is the plugin command after `--`, if any. */
function addTestCommand(program: Command, command: string[], setExit: (code: number) => void): void {
  program
    .command("test")
    .description("run the conformance checks against a plugin package, or any plugin after --")
    .argument("[dir]", "plugin package directory", ".")
    .option("--config <file>", "conformance config (default <dir>/errand-conformance.json)")
    .option("--json", "write a JSON report to stdout")
    .option("--junit <file>", "write a JUnit XML report")
    .option("--only <ids>", "comma-separated check ids or groups to run")
    .option("--skip <ids>", "comma-separated check ids or groups to skip")
    .option(
      "--start-timeout <ms>",
      "time allowed for the handshake line, 1 to 600000 (default 10000)",
      parseStartTimeout,
    )
    .option("--concurrency <n>", "checks run at once, 1 to 32 (default 4)", parseConcurrency)
    .addHelpText(
      "after",
      "\nExamples:\n  channel test\n  channel test --junit reports/channel.xml\n  channel test --config conf.json -- ./my-plugin\n\nExit codes: 0 all passed, 1 a check failed, 2 the run could not start (or the JUnit report could not be written), 130/143 stopped by Ctrl-C/SIGTERM.",
    )
    .action(async (dir: string, options) => {
      setExit(await stoppingPluginsOnSignal("test", () => testCommand(dir, command, options)));
    });
}

/** `channel send`: one notification to the plugin `command` runs. */
function addSendCommand(program: Command, command: string[], setExit: (code: number) => void): void {
  program
    .command("send")
    .description("send one notification to a plugin and print the result")
    .argument("<kind>", "start | complete | notify")
    .option("--ticket <file>", "ticket JSON (default: the SDK's basic fixture)")
    .option("--result <file>", "task result JSON for complete (default: the SDK's success fixture)")
    .option("--message <text>", "message for notify", "Hello from channel send")
    .option("--engine <name>", "engine for start", "claude-code")
    .option("--config <file>", "channel config JSON (the object of notifications.channels[].config)")
    .option("--secrets <file>", "secrets JSON (name → value)")
    .option("--timeout <ms>", "call deadline in milliseconds", parseTimeoutMs, 5000)
    .option(
      "--start-timeout <ms>",
      "time allowed for the plugin to start, 1 to 600000 (default 10000)",
      parseStartTimeout,
    )
    .addHelpText(
      "after",
      "\nExample:\n  channel send start --ticket ticket.json --config config.json --secrets secrets.json -- node dist/bin.js",
    )
    .action(async (kind: string, options) => {
      setExit(await sendCommand(kind, command, options));
    });
}

/** `channel lint`: the checks of a package before it is published. */
function addLintCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command("lint")
    .description("check a plugin package before npm publish")
    .argument("[dir]", "plugin package directory", ".")
    .option("--json", "print the findings as JSON")
    .addHelpText(
      "after",
      "\nExit codes: 0 ready to publish (warnings allowed), 1 an error was found, 2 no package to lint, 130/143 stopped by Ctrl-C/SIGTERM.",
    )
    .action(async (dir: string, options) => {
      setExit(await stoppingPluginsOnSignal("lint", () => lintCommand(dir, options)));
    });
}
