import { existsSync } from "node:fs";
import { readdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import chalk from "chalk";
import { CommanderError } from "commander";
import { CLI_VERSION } from "../util/version.js";
import { installDependencies } from "./install.js";
import { parseCreateArgs } from "./options.js";
import { type Answers, ask } from "./prompts.js";
import { scaffold } from "./scaffold.js";
import { TEMPLATE_IDS, TEMPLATES, templatesRoot } from "./templates.js";
import { channelNameFrom, packageNameFor, validateChannelName, validatePackageName } from "./validate.js";

/** The SDK dependency written when --sdk is not given. */
export const DEFAULT_SDK_SPEC = "^0.1.0";

const say = (line: string) => process.stdout.write(`${line}\n`);
const fail = (message: string, code = 1) => {
  process.stderr.write(`${chalk.red("create-channel:")} ${message}\n`);
  return code;
};

/** The `create-channel` CLI; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let flags;
  try {
    flags = parseCreateArgs(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 || error.code === "commander.version" ? 0 : 2;
    throw error;
  }
  const aborter = new AbortController();
  let staging: string | undefined;
  const onSigint = () => {
    aborter.abort();
    // Leave nothing half-written behind.
    if (staging) void rm(staging, { recursive: true, force: true }).finally(() => process.exit(130));
    else process.exit(130);
  };
  process.on("SIGINT", onSigint);
  try {
    const known: Partial<Answers> = { ...flags, dir: flags.dir };
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
        answers = await ask(known, aborter.signal);
      } catch (error) {
        if ((error as Error).name === "ExitPromptError" || (error as Error).name === "AbortPromptError") return fail("cancelled", 130);
        throw error;
      }
    }
    const problem = validateChannelName(answers.name) ?? validatePackageName(answers.packageName);
    if (problem) return fail(`${problem}\nfix it with --name / --package-name`, 2);
    const target = resolve(answers.dir);
    if (existsSync(target) && (await readdir(target)).length > 0 && !flags.force) {
      return fail(`${answers.dir} is not empty; choose another directory or pass --force to replace its contents`, 2);
    }
    const kind = TEMPLATES.find((t) => t.id === answers.template)!;
    // Everything is written beside the target and renamed into place at the
    // end, so Ctrl-C or a failure never leaves a half-written directory.
    staging = join(dirname(target), `.${basename(target)}.create-channel-${process.pid}`);
    const files = await scaffold(templatesRoot(), kind, staging, {
      name: answers.name,
      packageName: answers.packageName,
      description: answers.description,
      author: answers.author,
      sdkSpec: flags.sdk ?? DEFAULT_SDK_SPEC,
      cliVersion: CLI_VERSION,
    });
    say(`${chalk.green("✓")} ${kind.id} template: ${files.length} files for channel ${chalk.bold(answers.name)} (${answers.packageName})`);
    if (flags.install) {
      say(`${chalk.cyan("…")} installing dependencies with npm (this can take a minute)`);
      const ms = await installDependencies(staging, aborter.signal);
      say(`${chalk.green("✓")} dependencies installed in ${(ms / 1000).toFixed(1)} s`);
    }
    if (existsSync(target)) await rm(target, { recursive: true, force: true });
    await rename(staging, target);
    staging = undefined;
    say(`${chalk.green("✓")} created ${target}\n`);
    const cd = relative(process.cwd(), target) || ".";
    const steps = [
      ...(cd === "." ? [] : [`cd ${cd}`]),
      ...(flags.install ? [] : ["npm install"]),
      "npm run build",
      "npm test",
      "npx channel test        # conformance checks (npm install -D @errand/cli)",
      "npx channel lint && npm publish",
    ];
    say(`Next steps:\n${steps.map((s) => `  ${s}`).join("\n")}\n\nThen add it to the controller:\n  notifications:\n    channels:\n      - backend: ${answers.name}\n        config: { ... }   # see README.md`);
    return 0;
  } catch (error) {
    return fail((error as Error).message);
  } finally {
    process.off("SIGINT", onSigint);
    if (staging) await rm(staging, { recursive: true, force: true });
  }
}
