import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function pathProblem(path: string): string | undefined {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    return "does not exist";
  }
  if (isDirectory) return "is a directory, not a program";
  return isExecutableFile(path) ? undefined : "is not executable";
}

/**
 * Why `command` cannot be started, or undefined: a path must be an
 * executable file, a bare name one on PATH. Checked before the start
 * because a failed spawn would otherwise look like a plugin that crashed,
 * which the controller retries instead of reporting.
 */
export function executableProblem(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (command.includes("/")) return pathProblem(command);
  const candidates = (env.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, command));
  return candidates.some(isExecutableFile) ? undefined : "is not on PATH";
}
