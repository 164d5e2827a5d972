import { basename, resolve } from "node:path";
import { input, select } from "@inquirer/prompts";
import { LICENSES, type LicenseId } from "./licenses.js";
import type { CreateFlags } from "./options.js";
import { targetProblem } from "./target-check.js";
import { TEMPLATES } from "./templates.js";
import { channelNameFrom, packageNameFor, validateChannelName, validatePackageName } from "./validate.js";

/** Every answer the scaffolder needs. */
export interface Answers {
  dir: string;
  name: string;
  description: string;
  packageName: string;
  author: string;
  license: LicenseId;
  template: string;
}

const QUESTIONS: Record<keyof Answers, string> = {
  dir: "directory",
  name: "channel name",
  description: "description",
  packageName: "npm package name",
  author: "author",
  license: "license",
  template: "template",
};

/** The channel name a folder gives, from its last path segment: `path/My Chat` → `my-chat`. */
export const channelNameOfDir = (dir: string): string => channelNameFrom(basename(resolve(dir)));

/** What the flags leave open, as the questions would name it. */
export function unanswered(flags: CreateFlags): string[] {
  return (Object.keys(QUESTIONS) as (keyof Answers)[])
    .filter((key) => flags[key] === undefined)
    .map((key) => QUESTIONS[key]);
}

/** The answers of `--yes`: the flags, and defaults derived from them for the rest. */
export function defaultAnswers(flags: CreateFlags): Answers {
  const dir = flags.dir ?? "my-channel";
  const name = flags.name ?? channelNameOfDir(dir);
  return {
    dir,
    name,
    description: flags.description ?? `Errand notification channel ${name}`,
    packageName: flags.packageName ?? packageNameFor(name),
    author: flags.author ?? "",
    license: (flags.license as LicenseId | undefined) ?? LICENSES[0],
    template: flags.template ?? "webhook",
  };
}

/**
 * Asks (inquirer) for what flags left open, with defaults derived from what
 * is known (a license given is already checked). The directory is checked as soon as it is given: a file or a
 * non-empty folder (without `force`) is refused at that question.
 */
export async function ask(
  known: Partial<Record<keyof Answers, string>>,
  signal: AbortSignal,
  force: boolean,
): Promise<Answers> {
  const ctx = { signal };
  const dir =
    known.dir
    ?? (await input(
      { message: "Directory:", default: "my-channel", validate: (v) => targetProblem(v, force) ?? true },
      ctx,
    ));
  const name =
    known.name
    ?? (await input(
      { message: "Channel name:", default: channelNameOfDir(dir), validate: (v) => validateChannelName(v) ?? true },
      ctx,
    ));
  const description =
    known.description
    ?? (await input({ message: "Description:", default: `Errand notification channel ${name}` }, ctx));
  const packageName =
    known.packageName
    ?? (await input(
      { message: "npm package name:", default: packageNameFor(name), validate: (v) => validatePackageName(v) ?? true },
      ctx,
    ));
  const author = known.author ?? (await input({ message: "Author:", default: "" }, ctx));
  const license =
    (known.license as LicenseId | undefined)
    ?? (await select(
      { message: "License:", choices: LICENSES.map((id) => ({ name: id, value: id })), default: LICENSES[0] },
      ctx,
    ));
  const template =
    known.template
    ?? (await select(
      {
        message: "Starting point:",
        choices: TEMPLATES.map((t) => ({ name: t.title, value: t.id, description: t.id })),
        default: "webhook",
      },
      ctx,
    ));
  return { dir, name, description, packageName, author, license, template };
}
