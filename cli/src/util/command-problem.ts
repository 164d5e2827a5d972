import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function problemOf(path: string): string | undefined {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return "does not exist";
  }
  if (stat.isDirectory()) return "is a directory, not a program";
  if (!executable(path))
    return `is not executable: make it so (chmod +x ${path}) or run it through its interpreter (-- node ${path})`;
  return undefined;
}

/**
 * Why `command` cannot be started, or undefined: a path must be an executable
 * file, a bare name must be one on PATH. Checked up front because a failed
 * spawn would otherwise look like a plugin that exits at once.
 */
export function commandProblem(command: string): string | undefined {
  if (command.includes("/")) return problemOf(command);
  const candidates = (process.env.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, command));
  if (candidates.some(executable)) return undefined;
  const found = candidates.find((path) => problemOf(path) !== "does not exist");
  return found ? `was found at ${found}, which ${problemOf(found)}` : "is not on PATH";
}
