import { existsSync } from "node:fs";
import { resolve } from "node:path";

/** The file name looked for in the working folder when no --config is given. */
export const DEFAULT_CONFIG_FILE = "errand.yaml";

/**
 * The configuration file a command uses: the one given (relative to `cwd`),
 * else `errand.yaml` in `cwd` when it exists, else undefined (the embedded
 * defaults, which open no route and poll nothing).
 */
export function findConfigFile(given: string | undefined, cwd: string = process.cwd()): string | undefined {
  if (given !== undefined) return resolve(cwd, given);
  const here = resolve(cwd, DEFAULT_CONFIG_FILE);
  return existsSync(here) ? here : undefined;
}
