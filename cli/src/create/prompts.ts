import { input, select } from "@inquirer/prompts";
import { TEMPLATES } from "./templates.js";
import { channelNameFrom, packageNameFor, validateChannelName, validatePackageName } from "./validate.js";

/** Every answer the scaffolder needs. */
export interface Answers {
  dir: string;
  name: string;
  description: string;
  packageName: string;
  author: string;
  template: string;
}

/** Asks (inquirer) for what flags left open, with defaults derived from what is known. */
export async function ask(known: Partial<Answers>, signal: AbortSignal): Promise<Answers> {
  const ctx = { signal };
  const dir = known.dir ?? (await input({ message: "Directory:", default: "my-channel" }, ctx));
  const name =
    known.name ??
    (await input({ message: "Channel name:", default: channelNameFrom(dir), validate: (v) => validateChannelName(v) ?? true }, ctx));
  const description =
    known.description ?? (await input({ message: "Description:", default: `Errand notification channel ${name}` }, ctx));
  const packageName =
    known.packageName ??
    (await input({ message: "npm package name:", default: packageNameFor(name), validate: (v) => validatePackageName(v) ?? true }, ctx));
  const author = known.author ?? (await input({ message: "Author:", default: "" }, ctx));
  const template =
    known.template ??
    (await select(
      { message: "Starting point:", choices: TEMPLATES.map((t) => ({ name: t.title, value: t.id, description: t.id })), default: "webhook" },
      ctx,
    ));
  return { dir, name, description, packageName, author, template };
}
