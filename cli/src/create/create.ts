import { existsSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import chalk from "chalk";
import { exitCodeFor } from "../util/signals.js";
import { type InstallOutcome, installDependencies } from "./install.js";
import type { CreateFlags } from "./options.js";
import { discard, makeStaging, placeFiles } from "./place.js";
import type { Answers } from "./prompts.js";
import { hashFiles, RECORD_FILE, writeRecord } from "./record.js";
import { scaffold, valuesFor } from "./scaffold.js";
import { targetProblem } from "./target-check.js";
import { templateVersions } from "./template-versions.js";
import { TEMPLATES, templatesRoot } from "./templates.js";

/** What a signal handler and the running steps share. */
export interface Interruption {
  aborter: AbortController;
  signal: NodeJS.Signals | undefined;
  /** What the current step does on a signal (with the exit code); unset: exit at once. */
  onSignal: ((code: number) => void) | undefined;
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`);

/**
 * Scaffolds into a staging folder, installs there (unless the target already
 * holds files, see below), then moves the files into the target. Nothing of
 * the user's is ever removed: an empty target gets everything moved in
 * without replacing anything; a non-empty one (only with --force) gets the
 * template's files written over the files of the same paths, and the
 * install then runs in it, so that npm deals with what is there.
 */
export async function createChannel(
  answers: Answers,
  flags: CreateFlags,
  interruption: Interruption,
  fail: (message: string, code?: number) => number,
): Promise<number> {
  const exitCode = () => exitCodeFor(interruption.signal);
  const target = resolve(answers.dir);
  // Checked again here: the folder may have changed while the questions were answered.
  const problem = targetProblem(answers.dir, flags.force);
  if (problem) return fail(problem, 2);
  const inPlace = existsSync(target) && (await readdir(target)).length > 0;
  const kind = TEMPLATES.find((t) => t.id === answers.template)!;
  const staging = await makeStaging(target);
  let keepStaging = false;
  let placed = false;
  interruption.onSignal = (code) => void discard(staging).finally(() => process.exit(code));
  try {
    const files = await scaffoldInto(staging.dir, kind, answers, flags);
    let install: InstallOutcome | undefined;
    if (flags.install && !inPlace) {
      say(`${chalk.cyan("…")} installing dependencies with npm (this can take a minute)`);
      install = await installDependencies(staging.dir, interruption.aborter.signal);
      if (interruption.signal) return exitCode();
      // A failed install leaves a partial node_modules that would only mislead; the scaffold itself is kept.
      if (!install.ok)
        for (const junk of ["node_modules", "package-lock.json"])
          await rm(join(staging.dir, junk), { recursive: true, force: true });
    }
    if (interruption.signal) return exitCode();
    // From here the files are the user's: a signal lets the move (and an install in place) finish or stop, then says where things are.
    interruption.onSignal = () => {};
    const unplaced = await placeFiles(staging, target, files, inPlace, answers.dir);
    if (unplaced) {
      keepStaging = unplaced.keepStaging;
      return fail(unplaced.message, unplaced.code);
    }
    placed = true;
    say(
      `${chalk.green("✓")} created ${target}${inPlace ? " (the template's files written over, every other file kept)" : ""}`,
    );
    const cd = relative(process.cwd(), target) || ".";
    const cdStep = cd === "." ? [] : [`cd ${shellWord(cd)}`];
    if (flags.install && inPlace) {
      say(`${chalk.cyan("…")} installing dependencies with npm in ${answers.dir} (this can take a minute)`);
      install = await installDependencies(target, interruption.aborter.signal);
    }
    if (interruption.signal) {
      process.stderr.write(
        `create-channel: interrupted; the channel's files are in ${target}: finish with ${[...cdStep, "npm install"].join(" && ")}\n`,
      );
      return exitCode();
    }
    if (install && !install.ok) {
      fail(
        `npm install failed: ${install.reason}\nThe channel's files are in place in ${target}. Finish with:\n  ${[...cdStep, "npm install"].join(" && ")}\n(create-channel --no-install skips this step, to install later.)`,
      );
    }
    sayNextSteps(cdStep, install?.ok === true, answers.name);
    return install && !install.ok ? 1 : 0;
  } catch (error) {
    // After a signal, errors are the cleanup racing the step it interrupted.
    if (interruption.signal) return exitCode();
    throw error;
  } finally {
    if (!placed && !keepStaging) await discard(staging);
  }
}

/** Writes the template's files into `dir` with the answers, and the record `update` needs; returns the files written. */
async function scaffoldInto(
  dir: string,
  kind: (typeof TEMPLATES)[number],
  answers: Answers,
  flags: CreateFlags,
): Promise<string[]> {
  const root = templatesRoot();
  const versions = templateVersions(root);
  const { name, packageName, description, author, license } = answers;
  const recorded = {
    name,
    packageName,
    description,
    author,
    license,
    year: String(new Date().getUTCFullYear()),
    ...(flags.sdk === undefined ? {} : { sdkSpec: flags.sdk }),
  };
  const files = await scaffold(root, kind, dir, valuesFor(recorded, versions));
  // What update needs to tell the user's changes from the template's.
  await writeRecord(dir, {
    template: kind.id,
    version: versions.cli,
    answers: recorded,
    files: await hashFiles(dir, files),
  });
  files.push(RECORD_FILE);
  say(
    `${chalk.green("✓")} ${kind.id} template: ${files.length} files for channel ${chalk.bold(answers.name)} (${answers.packageName})`,
  );
  return files;
}

function sayNextSteps(cdStep: string[], installed: boolean, name: string): void {
  const steps = [
    ...cdStep,
    ...(installed ? [] : ["npm install"]),
    "npm run build",
    "npm test",
    "npm run conformance     # channel test: the conformance checks",
    "npx --no-install channel lint && npm publish",
  ];
  say(
    `\nNext steps:\n${steps.map((s) => `  ${s}`).join("\n")}\n\nThen add it to the controller:\n  notifications:\n    channels:\n      - backend: ${name}\n        config: { ... }   # see README.md`,
  );
}
