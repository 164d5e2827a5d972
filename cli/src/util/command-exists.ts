import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

/** True when `command` is an existing path, or a name found on PATH. */
export function commandExists(command: string): boolean {
  if (command.includes("/")) return existsSync(command);
  return (process.env.PATH ?? "").split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}
