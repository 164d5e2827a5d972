import { statSync } from "node:fs";
import type { EngineInvocation } from "../../engines/engine.js";
import { EngineStartError } from "../engine-start-error.js";
import type { EngineEvents, Spawner } from "./spawner.js";

/** Options of {@link spawnEngine}. */
export interface SpawnOptions {
  engineName: string;
  invocation: EngineInvocation;
  cwd: string;
  env: Record<string, string>;
}

/**
 * Starts the engine through the spawner, in a process group of its own
 * (`detached`: the group is what stop() signals, and the engine survives
 * a controller killed with SIGKILL so that the restart can decide its
 * fate), with exactly `env`. `events` receives its output and exit.
 * Resolves with its pid once it has spawned; rejects with an
 * {@link EngineStartError} that names the command and the fix.
 */
export async function spawnEngine(spawner: Spawner, options: SpawnOptions, events: EngineEvents): Promise<number> {
  const { invocation, cwd, env } = options;
  try {
    return await spawner.spawn(
      { command: invocation.command, args: invocation.args, cwd, env, stdin: invocation.stdin },
      events,
    );
  } catch (error) {
    throw startError(options, error);
  }
}

/** Turns a spawn failure into what the user must do about it. */
function startError(options: SpawnOptions, error: unknown): EngineStartError {
  const { engineName, invocation, cwd } = options;
  const command = invocation.command;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const setting = `engines.${engineName}.command`;
  const prefix = `engine "${engineName}" could not be started`;
  if (!isDirectory(cwd)) {
    return new EngineStartError(`${prefix}: its workspace ${cwd} is not a folder`, {
      cause: error,
      hint: "check that execution.local.workspace_dir exists and nothing removes workspaces while runs start",
    });
  }
  const hasPath = command.includes("/");
  if (code === "ENOENT" && !hasPath) {
    return new EngineStartError(
      `${prefix}: the command "${command}" was not found on PATH (${options.env.PATH ?? ""})`,
      {
        cause: error,
        hint: `install ${command} or set ${setting} to the full path of the executable`,
      },
    );
  }
  if (code === "ENOENT" && !exists(command, cwd)) {
    return new EngineStartError(`${prefix}: the command "${command}" does not exist`, {
      cause: error,
      hint: `install it there or set ${setting} to the path of the executable`,
    });
  }
  if (code === "ENOENT") {
    return new EngineStartError(
      `${prefix}: "${command}" exists but could not be run; the interpreter named on its #! line is probably missing`,
      {
        cause: error,
        hint: `install the interpreter its first line names, or fix that line of ${command}`,
      },
    );
  }
  if (code === "EACCES" || code === "EISDIR") {
    return new EngineStartError(`${prefix}: "${command}" is not an executable file`, {
      cause: error,
      hint: `make it executable (chmod +x ${command}) or set ${setting} to an executable`,
    });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new EngineStartError(`${prefix}: running "${command}" failed: ${reason}`, {
    cause: error,
    hint: `check ${setting} and that the controller's user may run it`,
  });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function exists(command: string, cwd: string): boolean {
  try {
    statSync(command.startsWith("/") ? command : `${cwd}/${command}`);
    return true;
  } catch {
    return false;
  }
}
