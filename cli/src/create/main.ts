import { basename, resolve } from "node:path";
import chalk from "chalk";
import { CommanderError } from "commander";
import { exitCodeFor, STOP_SIGNALS } from "../util/signals.js";
import { guardStdio } from "../util/stdio.js";
import { createChannel, type Interruption } from "./create.js";
import { isLicense, LICENSES } from "./licenses.js";
import { parseCreateArgs } from "./options.js";
import { type Answers, ask, defaultAnswers, unanswered } from "./prompts.js";
import { targetProblem } from "./target-check.js";
import { TEMPLATE_IDS } from "./templates.js";
import { updateMain } from "./update.js";
import { validateChannelName, validatePackageName } from "./validate.js";

const fail = (message: string, code = 1) => {
  process.stderr.write(`${chalk.red("create-channel:")} ${message}\n`);
  return code;
};

/**
 * The `create-channel` CLI; resolves to the exit code. `create-channel update
 * [dir]` brings an existing scaffold to this version's template (to scaffold
 * into a folder named "update", write `./update`).
 */
export async function main(argv: string[]): Promise<number> {
  guardStdio();
  if (argv[0] === "update") return updateMain(argv.slice(1));
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
    if (flags.license !== undefined && !isLicense(flags.license)) {
      return fail(
        `unknown license "${flags.license}": choose one of ${LICENSES.join(", ")} (SPDX ids, spelled as here)`,
        2,
      );
    }
    // The folder is checked before any question, so that nobody answers them all to be refused at the end.
    const dirProblem = flags.dir === undefined ? undefined : targetProblem(flags.dir, flags.force);
    if (dirProblem) return fail(dirProblem, 2);
    const givenName = flags.name === undefined ? undefined : validateChannelName(flags.name);
    const nameProblem =
      givenName ?? (flags.packageName === undefined ? undefined : validatePackageName(flags.packageName));
    if (nameProblem) return fail(`${nameProblem}\nfix it with --name / --package-name`, 2);
    let answers: Answers;
    if (flags.yes) {
      answers = defaultAnswers(flags);
      const folder = basename(resolve(answers.dir));
      if (flags.name === undefined && answers.name !== folder) {
        process.stdout.write(
          `channel name ${chalk.bold(answers.name)}: made from the folder name "${folder}" (pass --name to choose another)\n`,
        );
      }
    } else {
      const open = unanswered(flags);
      // Prompts on a pipe would only print escape codes into a log and wait for input that never comes.
      if (open.length > 0 && !process.stdin.isTTY) {
        return fail(
          `stdin is not a terminal, so nobody can answer the questions (${open.join(", ")}); pass --yes to take the defaults, with --name, --template, ... for what you want to choose`,
          2,
        );
      }
      try {
        answers = await ask(flags, interruption.aborter.signal, flags.force);
      } catch (error) {
        const name = (error as Error).name;
        if (name !== "ExitPromptError" && name !== "AbortPromptError") throw error;
        if (interruption.signal) return exitCodeFor(interruption.signal);
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
