import { basename, resolve } from "node:path";
import chalk from "chalk";
import { CommanderError } from "commander";
import { exitCodeFor, STOP_SIGNALS } from "../util/signals.js";
import { guardStdio } from "../util/stdio.js";
import { createChannel, type Interruption } from "./create.js";
import { parseCreateArgs } from "./options.js";
import { type Answers, ask } from "./prompts.js";
import { TEMPLATE_IDS } from "./templates.js";
import { channelNameFrom, packageNameFor, validateChannelName, validatePackageName } from "./validate.js";

const fail = (message: string, code = 1) => {
  process.stderr.write(`${chalk.red("create-channel:")} ${message}\n`);
  return code;
};

/** The `create-channel` CLI; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  guardStdio();
  let flags;
  try {
    flags = parseCreateArgs(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 || error.code === "commander.version" ? 0 : 2;
    throw error;
  }
  const interruption: Interruption = { aborter: new AbortController(), signal: undefined, onSignal: undefined };
  const onSignal = (signal: NodeJS.Signals) => {
    const code = exitCodeFor(signal);
    if (interruption.signal) process.exit(code);
    interruption.signal = signal;
    interruption.aborter.abort();
    // Each phase knows what to leave behind; before any exists there is nothing to clean up.
    if (interruption.onSignal) interruption.onSignal(code);
    else process.exit(code);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  try {
    if (flags.template !== undefined && !TEMPLATE_IDS.includes(flags.template)) {
      return fail(`unknown template "${flags.template}": choose one of ${TEMPLATE_IDS.join(", ")}`, 2);
    }
    let answers: Answers;
    if (flags.yes) {
      const dir = flags.dir ?? "my-channel";
      const name = flags.name ?? channelNameFrom(basename(resolve(dir)));
      answers = {
        dir,
        name,
        description: flags.description ?? `Errand notification channel ${name}`,
        packageName: flags.packageName ?? packageNameFor(name),
        author: flags.author ?? "",
        template: flags.template ?? "webhook",
      };
    } else {
      try {
        answers = await ask({ ...flags, dir: flags.dir }, interruption.aborter.signal);
      } catch (error) {
        const name = (error as Error).name;
        if (name !== "ExitPromptError" && name !== "AbortPromptError") throw error;
        if (interruption.signal) return exitCodeFor(interruption.signal);
        if (!process.stdin.isTTY) {
          return fail("the questions need answers on a terminal, and stdin ended first; pass --yes to take the defaults (and --name, --template, ... for the rest)", 2);
        }
        return fail("cancelled", 130);
      }
    }
    const problem = validateChannelName(answers.name) ?? validatePackageName(answers.packageName);
    if (problem) return fail(`${problem}\nfix it with --name / --package-name`, 2);
    return await createChannel(answers, flags, interruption, fail);
  } catch (error) {
    return fail((error as Error).message);
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  }
}
