import { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { readdir, rmdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { Ticket } from "@errand/channel-sdk";
import type { ExecutionConfig } from "../../config/controller-config.js";
import { ticketFileText } from "../../engines/ticket-file.js";
import { EngineStartError } from "../engine-start-error.js";
import type { SpareFolders } from "./spare-folders.js";

/** Where one run's files are. The run folder is outside the workspace so the agent's checkout stays clean. */
export interface RunPaths {
  /** `<workspace_dir>/<run id>`: the engine's working directory. */
  workspace: string;
  /** `<workspace_dir>/.errand/<run id>`: prompt, ticket and result files. */
  runDir: string;
  prompt: string;
  ticket: string;
  result: string;
  /** `<log_dir>/<run id>.log`. */
  log: string;
}

/** Run ids become folder and file names: nothing that could climb out of them. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** True when `runId` is usable as a file name. */
export function isSafeRunId(runId: string): boolean {
  return SAFE_ID.test(runId);
}

/** The paths of run `runId` (checked with {@link isSafeRunId} first). */
export function runPaths(config: ExecutionConfig["local"], runId: string): RunPaths {
  const runDir = join(config.workspaceDir, ".errand", runId);
  return {
    workspace: join(config.workspaceDir, runId),
    runDir,
    prompt: join(runDir, "prompt.md"),
    ticket: join(runDir, "ticket.json"),
    result: join(runDir, "result.json"),
    log: join(config.logDir, `${runId}.log`),
  };
}

/*
 * A run's file work is synchronous on purpose: a dozen small calls on
 * local folders, each a few microseconds of system time. As promises each
 * was a round trip through libuv's thread pool, two thread wake-ups; a run
 * made about 35 of them one after another, and on a loaded machine every
 * wake-up waits for a CPU: 80-100 ms a run in all (measured, see
 * docs/benchmarks.md), while the engine itself took a few ms.
 * workspace_dir and log_dir must be local folders (the engine works there).
 */

/**
 * Creates the fresh workspace (an empty spare one, when `spares` has one).
 * One that exists and is not empty is refused: whatever is in it belongs to
 * someone else, and a run must start from a clean folder.
 */
export function claimWorkspace(paths: RunPaths, engineName: string, spares?: SpareFolders): void {
  if (spares?.take("workspace", paths.workspace)) return;
  createEmptyDir(paths.workspace, engineName);
}

/**
 * Writes the run folder (a spare one, when `spares` has one): the prompt and
 * the ticket (in the shape every engine reads, see ticket-file.ts), over a
 * spare's files of the run before.
 */
export function writeRunFiles(paths: RunPaths, ticket: Ticket, prompt: string, spares?: SpareFolders): void {
  if (spares?.take("run", paths.runDir)) {
    overwriteFile(paths.prompt, prompt);
    overwriteFile(paths.ticket, ticketFileText(ticket));
    return;
  }
  try {
    mkdirSync(paths.runDir, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A run folder of the same id can only be a leftover of this run's own failed start.
    if (code === "EEXIST") rmSync(paths.runDir, { recursive: true, force: true });
    if (code !== "EEXIST" && code !== "ENOENT") throw error;
    mkdirSync(paths.runDir, { recursive: true, mode: 0o700 });
  }
  writeFileSync(paths.prompt, prompt, { mode: 0o600 });
  writeFileSync(paths.ticket, ticketFileText(ticket), { mode: 0o600 });
}

/**
 * Writes `text` over the file a spare run folder kept, in place: truncating it first (writeFileSync) frees its
 * blocks and allocates them again, 5 times the system time on ext4 (measured: 50 against 10 µs). A file that is
 * not there is created as the run folder's files are.
 */
function overwriteFile(path: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(path, "r+");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    writeFileSync(path, text, { mode: 0o600 });
    return;
  }
  try {
    const bytes = Buffer.from(text);
    for (let written = 0; written < bytes.length; )
      written += writeSync(fd, bytes, written, bytes.length - written, written);
    ftruncateSync(fd, bytes.length);
  } finally {
    closeSync(fd);
  }
}

function createEmptyDir(dir: string, engineName: string): void {
  try {
    if (makeDir(dir)) return;
    const entries = readdirSync(dir);
    if (entries.length === 0) return;
  } catch (error) {
    throw new EngineStartError(
      `engine "${engineName}": the workspace ${dir} could not be created: ${(error as Error).message}`,
      {
        cause: error,
        hint: "check that execution.local.workspace_dir is a writable folder",
      },
    );
  }
  throw new EngineStartError(
    `engine "${engineName}": the workspace ${dir} already exists and is not empty; a run always starts in a fresh folder`,
    {
      hint: `remove ${dir} (it is left from an earlier run or made by something else) or set execution.local.workspace_dir to another folder`,
    },
  );
}

/** True when the workspace of a run that ended this way is kept (`execution.local.keep_workspaces`). */
export function keepsWorkspace(policy: ExecutionConfig["local"]["keepWorkspaces"], success: boolean): boolean {
  return policy === "always" || (policy === "on_failure" && !success);
}

/** Creates `dir` (and its parents when missing); false when it was there already. */
function makeDir(dir: string): boolean {
  try {
    mkdirSync(dir);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code !== "ENOENT") throw error;
  }
  mkdirSync(dir, { recursive: true });
  return true;
}

/**
 * Removes the workspace and the run folder, walking them on the event loop;
 * the log stays. For the rare paths (a start that failed, a restart); a
 * finished run's are removed by {@link removeOwnRunFiles} or the spawner.
 * Never throws: a failure is returned for the caller to log.
 */
export function removeRunFiles(paths: Pick<RunPaths, "workspace" | "runDir">): Error | undefined {
  try {
    rmSync(paths.workspace, { recursive: true, force: true, maxRetries: 2 });
    rmSync(paths.runDir, { recursive: true, force: true, maxRetries: 2 });
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

/**
 * Removes the run's files when they are all the controller's: the three it
 * knows in the run folder and an empty workspace (no directory walk), on
 * the thread pool: under load an rmdir here blocks for a third of a
 * millisecond (measured in bench:controller's profile), and no one waits
 * for it. With `spares`, the emptied folders go to the spares instead, the
 * prompt and ticket left in the run folder for the next run to overwrite
 * (the result never: a next run must not find one it did not write). False,
 * leaving the rest, when anything else is there (an agent's checkout, files
 * of its own beside the result): that is removed by the spawner (its
 * remove()), as walking a large tree would cost the controller a callback
 * per file.
 */
export async function removeOwnRunFiles(paths: RunPaths, spares?: SpareFolders): Promise<boolean> {
  try {
    await unlink(paths.result).catch(gone);
    if (spares !== undefined) {
      const recycled = await recycle(paths, spares);
      if (recycled !== undefined) return recycled;
    }
    await Promise.all([removeRunFolder(paths), rmdir(paths.workspace).catch(gone)]);
    return true;
  } catch {
    return false;
  }
}

/** The files a spare run folder may keep: the next run writes both before its engine starts. */
const OVERWRITTEN = new Set(["prompt.md", "ticket.json"]);

/** Keeps the run's folders as spares (or removes what the spares do not take); undefined when either is not there. */
async function recycle(paths: RunPaths, spares: SpareFolders): Promise<boolean | undefined> {
  let entries: [string[], string[]];
  try {
    entries = await Promise.all([readdir(paths.workspace), readdir(paths.runDir)]);
  } catch {
    return undefined;
  }
  if (entries[0].length > 0 || entries[1].some((name) => !OVERWRITTEN.has(name))) return false;
  const [workspaceKept, runKept] = await Promise.all([
    spares.keep("workspace", paths.workspace),
    spares.keep("run", paths.runDir),
  ]);
  await Promise.all([
    workspaceKept ? undefined : rmdir(paths.workspace).catch(gone),
    runKept ? undefined : removeRunFolder(paths),
  ]);
  return true;
}

/** Removes the run folder once its prompt and ticket are gone (its result already is). */
async function removeRunFolder(paths: RunPaths): Promise<void> {
  await Promise.all([unlink(paths.prompt).catch(gone), unlink(paths.ticket).catch(gone)]);
  await rmdir(paths.runDir).catch(gone);
}

function gone(error: NodeJS.ErrnoException): void {
  if (error.code !== "ENOENT") throw error;
}
