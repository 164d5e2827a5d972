import { existsSync, readdirSync, statSync } from "node:fs";
import { resolve } from "node:path";

/**
 * Why `dir` cannot take a new channel, or undefined: a file stands there, or
 * a non-empty folder without `--force`. Checked as soon as the directory is
 * known, so that nobody answers every question first to be refused at the end.
 */
export function targetProblem(dir: string, force: boolean): string | undefined {
  const target = resolve(dir);
  if (!existsSync(target)) return undefined;
  if (!statSync(target).isDirectory())
    return `${dir} is a file, not a folder; choose another directory for the channel`;
  if (!force && readdirSync(target).length > 0) {
    return `${dir} is not empty; choose another directory, or pass --force to write the template's files into it (replacing files of the same names, keeping every other file)`;
  }
  return undefined;
}
