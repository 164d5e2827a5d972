import { statSync } from "node:fs";
import { PluginStartError } from "../errors.js";
import { argumentError, describeValue, isPlainObject, keyPath } from "../runtime/argument-error.js";

/** What a plugin is started from: the fields of `connectChannel` and `launchPlugin` options that reach spawn(). */
export interface LaunchTarget {
  command: string;
  args?: readonly string[];
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** The command line as error messages show it, the same for every start failure. */
export function describeCommand(target: LaunchTarget): string {
  return [target.command, ...(target.args ?? [])].join(" ");
}

/**
 * Checks what will be passed to spawn(), which would otherwise throw Node's
 * raw errors (ERR_INVALID_ARG_VALUE for an empty command, say) synchronously.
 * Throws InvalidArgumentError naming the option.
 */
export function checkLaunchTarget(target: LaunchTarget, label: string): void {
  if (typeof target !== "object" || target === null) {
    throw argumentError(
      label,
      "options",
      `must be an object, got ${describeValue(target)}`,
      "pass { command, args, … }",
    );
  }
  const { command, args, env, cwd } = target as unknown as Record<string, unknown>;
  if (typeof command !== "string" || command.trim() === "" || command.includes("\0")) {
    throw argumentError(
      label,
      "options.command",
      `must be the plugin executable's path, got ${describeValue(command)}`,
      'set command to the executable, for example command: process.execPath with args: ["dist/bin.js"]',
    );
  }
  if (args !== undefined && (!Array.isArray(args) || !args.every((a) => typeof a === "string" && !a.includes("\0")))) {
    throw argumentError(
      label,
      "options.args",
      `must be an array of strings, got ${describeValue(args)}`,
      'pass each argument as its own string, for example ["dist/bin.js", "--verbose"]',
    );
  }
  if (cwd !== undefined && (typeof cwd !== "string" || cwd === "" || cwd.includes("\0"))) {
    throw argumentError(
      label,
      "options.cwd",
      `must be a directory path, got ${describeValue(cwd)}`,
      "leave cwd out to start the plugin in the host's working directory",
    );
  }
  if (env !== undefined) {
    if (!isPlainObject(env))
      throw argumentError(
        label,
        "options.env",
        `must be an object of strings, got ${describeValue(env)}`,
        'pass { NAME: "value" }',
      );
    for (const [name, value] of Object.entries(env)) {
      if (value !== undefined && typeof value !== "string") {
        throw argumentError(
          label,
          `options.env${keyPath(name)}`,
          `must be a string or undefined, got a value of type ${value === null ? "null" : typeof value}`,
          "convert the value to a string",
        );
      }
    }
  }
}

/**
 * spawn() reports a missing working directory as "spawn <command> ENOENT",
 * which blames the command; this names the directory instead. Throws
 * PluginStartError when `cwd` is given and is not an existing directory.
 */
export function checkWorkingDirectory(target: LaunchTarget): void {
  if (target.cwd === undefined) return;
  const problem = workingDirectoryProblem(target.cwd);
  if (problem) {
    throw new PluginStartError(`${describeCommand(target)}: could not start: ${problem}`, {
      hint: "set cwd to an existing directory (a relative path is resolved against the host's working directory), or leave it out",
    });
  }
}

/** Why `cwd` cannot be a working directory, or undefined when it can. */
export function workingDirectoryProblem(cwd: string): string | undefined {
  try {
    return statSync(cwd).isDirectory() ? undefined : `the working directory ${JSON.stringify(cwd)} is not a directory`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT"
      ? `the working directory ${JSON.stringify(cwd)} does not exist`
      : `the working directory ${JSON.stringify(cwd)} cannot be used (${code ?? String(error)})`;
  }
}
