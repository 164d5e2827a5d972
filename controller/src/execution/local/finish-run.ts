import type { Logger, TaskResult } from "@errand/channel-sdk";
import type { ExecutionConfig } from "../../config/controller-config.js";
import type { EngineExit, OutputParser } from "../../engines/engine.js";
import type { RunOutcome, StopReason } from "../execution-backend.js";
import type { RunWorkspace } from "../run-workspace.js";
import { readResultFile } from "./result-file.js";
import { keepsWorkspace, type RunPaths, removeOwnRunFiles } from "./run-files.js";
import type { RunLog } from "./run-log.js";
import type { SpareFolders } from "./spare-folders.js";
import type { Spawner } from "./spawner.js";
import { SPAWNER_LOST_REASON, STOP_REASON_TEXT } from "./stop-reasons.js";

/**
 * {@link EngineExit} as the local backend passes it: `resultFileProblem`
 * says why a result file that exists was not read (over 1 MiB, not a
 * regular file), so the engine can report that rather than a missing file.
 */
export type LocalEngineExit = EngineExit & { resultFileProblem: string | undefined };

/** What {@link finishRun} needs: the run's pieces and how its process ended. */
export interface FinishInput {
  config: ExecutionConfig["local"];
  logger: Logger;
  log: RunLog;
  paths: RunPaths;
  parser: OutputParser;
  exit: { exitCode: number | undefined; signal: string | undefined };
  durationMs: number;
  stopReason: StopReason | undefined;
  /**
   * Set when the spawner died while the engine ran: no exit status came, so
   * the result file alone decides, as after a restart; `stopped` when its
   * process group still ran and was stopped (then the run fails).
   */
  lost?: { stopped: boolean } | undefined;
  /** Removes folders off the event loop ({@link Spawner.remove}); resolves with the first failure. */
  remove(paths: readonly string[]): Promise<Error | undefined>;
  /** Finishes a prepared workspace (push, pull request) before it is removed: {@link RunWorkspace.finish}. */
  workspace?: RunWorkspace | undefined;
  /** Where the run's emptied folders go for the next runs, instead of being removed. */
  spares?: SpareFolders | undefined;
}

/** What {@link finishRun} settles: the outcome, and the clean-up that goes on after it. */
export interface FinishedRun {
  outcome: RunOutcome;
  /**
   * Settles once the workspace and run folder are removed (or kept) and the
   * log is closed. Never rejects. The outcome does not wait for it: a
   * run's slot is free as soon as its result is read.
   */
  cleanedUp: Promise<void>;
}

/**
 * Reads the result, lets a prepared workspace finish (push, pull request)
 * and settles the outcome; then removes the workspace as
 * `keep_workspaces` says (off the event loop: the run's slot does not wait
 * for it) and closes the log.
 * Never rejects: a failure of its own becomes the run's failure reason.
 */
export async function finishRun(input: FinishInput): Promise<FinishedRun> {
  const { config, logger, log, paths, exit, durationMs, stopReason } = input;
  let result: TaskResult;
  try {
    const read = readResultFile(paths.result);
    if (read.problem !== undefined) log.note(read.problem);
    const engineExit: LocalEngineExit = { ...exit, resultFile: read.text, durationMs, resultFileProblem: read.problem };
    if (input.lost !== undefined) engineExit.exitUnknown = true;
    result = parse(input.parser, engineExit);
  } catch (error) {
    logger.error("finishing the run failed", { error });
    result = failure(`the run's result could not be read: ${(error as Error).message}`, durationMs);
  }
  if (stopReason !== undefined) result = { ...result, success: false, failureReason: STOP_REASON_TEXT[stopReason] };
  else if (input.lost?.stopped === true)
    result = { ...result, success: false, failureReason: `${SPAWNER_LOST_REASON}; its processes were stopped` };
  else if (input.lost !== undefined && !result.success)
    result = {
      ...result,
      failureReason: `${SPAWNER_LOST_REASON}; ${result.failureReason || "the engine reported a failure"}`,
    };
  if (result.durationMs === undefined) result = { ...result, durationMs };
  if (input.workspace !== undefined) result = await input.workspace.finish(paths.workspace, result, (l) => log.note(l));
  if (log.droppedBytes > 0) log.note(`${log.droppedBytes} bytes of output after the cap were not kept`);
  const ended =
    input.lost !== undefined
      ? "ended (exit status unknown)"
      : exit.signal !== undefined
        ? `killed by ${exit.signal}`
        : `exited with code ${exit.exitCode}`;
  log.note(`${ended} after ${durationMs} ms; ${result.success ? "succeeded" : `failed: ${result.failureReason}`}`);
  const outcome: RunOutcome = { result, stoppedFor: stopReason };
  // Output still queued after a drain that timed out must not follow the run's end in its log.
  log.endOutput();
  if (keepsWorkspace(config.keepWorkspaces, result.success)) {
    log.note(`workspace kept: ${paths.workspace} (result and prompt files in ${paths.runDir})`);
    log.close();
    return { outcome, cleanedUp: Promise.resolve() };
  }
  const cleanedUp = removeOwnRunFiles(paths, input.spares)
    .then((removed) => (removed ? undefined : input.remove([paths.workspace, paths.runDir])))
    .catch((error: unknown) => error as Error)
    .then((error) => {
      if (error !== undefined) {
        logger.warn("could not remove the run's workspace", { workspace: paths.workspace, error });
        log.note(`could not remove the workspace ${paths.workspace}: ${error.message}`);
      }
      log.close();
    });
  return { outcome, cleanedUp };
}

/** The parser's result; a parser that throws (it must not) gives a failure naming that. */
function parse(parser: OutputParser, exit: LocalEngineExit): TaskResult {
  let result: TaskResult;
  try {
    result = parser.finish(exit);
  } catch (error) {
    return failure(`the engine's output could not be read: ${(error as Error).message}`, exit.durationMs);
  }
  const problem = exit.resultFileProblem;
  if (problem !== undefined && !result.success && !result.failureReason.includes(problem)) {
    result = {
      ...result,
      failureReason: result.failureReason === "" ? problem : `${result.failureReason} (${problem})`,
    };
  }
  return result;
}

function failure(reason: string, durationMs: number): TaskResult {
  return { success: false, summary: "", pullRequestUrl: "", failureReason: reason, durationMs };
}
