import { appendFile } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname } from "node:path";
import type { Logger, TaskResult } from "@errand/channel-sdk";
import type { ExecutionConfig } from "../../config/controller-config.js";
import type { TaskRun } from "../../runs/task-run.js";
import type { RecoveryPlan, RunSpec } from "../execution-backend.js";
import { type LocalAttachment, parseAttachment } from "./attachment.js";
import type { LocalEngineExit } from "./finish-run.js";
import { bootId, processStartTime } from "./proc-stat.js";
import { processExists, terminateGroup } from "./process-group.js";
import { readResultFile } from "./result-file.js";
import { keepsWorkspace, removeRunFiles, runPaths } from "./run-files.js";

/** Why every recovered run ends; the rest of the reason says what was found. */
export const RESTART_REASON = "controller restarted while the run was running";

/**
 * The fate of a run a dead controller left Running. The engine's output
 * went to the dead controller, so it cannot be followed any more:
 *
 * - still running (same pid, same start time, same boot): its process group
 *   is stopped (SIGTERM, then SIGKILL) and the run fails;
 * - ended and wrote a result file: the run is recorded with that result
 *   (a reattach handle whose `done` has settled);
 * - ended without a result file, or nothing was recorded: the run fails.
 *
 * A process that cannot be proved to be the engine (another machine, a pid
 * now used by something else, no /proc) is never signalled.
 */
export async function recoverLocalRun(config: ExecutionConfig["local"], logger: Logger, run: TaskRun, spec: RunSpec): Promise<RecoveryPlan> {
  const attachment = parseAttachment(run.attachment);
  if (attachment === undefined) return { action: "fail", reason: `${RESTART_REASON}; no engine process was recorded for it` };
  const settle = (success: boolean, plan: RecoveryPlan): Promise<RecoveryPlan> => finish(config, attachment, success, plan, run.id);
  const note = (text: string): Promise<void> => appendFile(attachment.logFile, `[errand] ${text}\n`).catch(() => undefined);
  if (attachment.hostname !== hostname()) {
    return { action: "fail", reason: `${RESTART_REASON}; it ran on host ${attachment.hostname}, whose processes were not touched` };
  }
  const identity = sameProcess(attachment);
  if (identity === "same") {
    await note(`${RESTART_REASON}: stopping process group ${attachment.pgid}`);
    try {
      await terminateGroup(attachment.pgid, config.killGraceMs);
    } catch (error) {
      logger.error("could not stop the process group of a recovered run", { runId: run.id, pgid: attachment.pgid, error });
      return settle(false, { action: "fail", reason: `${RESTART_REASON}; its process group ${attachment.pgid} could not be stopped: ${(error as Error).message}` });
    }
    return settle(false, { action: "fail", reason: `${RESTART_REASON}; its processes were stopped` });
  }
  if (identity === "unknown") {
    return { action: "fail", reason: `${RESTART_REASON}; process ${attachment.pid} could not be proved to be its engine (no start time) and was left alone` };
  }
  const read = await readResultFile(attachment.resultFile);
  if (read.text === undefined) {
    const found = read.problem ?? "it had ended without writing a result";
    await note(`${RESTART_REASON}: ${found}`);
    return settle(false, { action: "fail", reason: `${RESTART_REASON}; ${found}` });
  }
  const durationMs = run.startedAt !== undefined && read.modifiedAt !== undefined ? Math.max(0, Math.round(read.modifiedAt - run.startedAt)) : 0;
  const exit: LocalEngineExit = { exitCode: undefined, signal: undefined, resultFile: read.text, durationMs, resultFileProblem: undefined };
  let result: TaskResult;
  try {
    result = spec.engine.parser().finish(exit);
  } catch (error) {
    return settle(false, { action: "fail", reason: `${RESTART_REASON}; its result file could not be read: ${(error as Error).message}` });
  }
  if (!result.success) result = { ...result, failureReason: `${RESTART_REASON}; ${result.failureReason || "the engine reported a failure"}` };
  if (run.startedAt !== undefined && read.modifiedAt !== undefined && result.durationMs === undefined) result = { ...result, durationMs };
  await note(`${RESTART_REASON}: it had ended; recorded from its result file (${result.success ? "succeeded" : "failed"})`);
  const outcome = { result, stoppedFor: undefined };
  return settle(result.success, {
    action: "reattach",
    handle: { attachment: { ...attachment }, logRef: attachment.logFile, done: Promise.resolve(outcome), stop: () => Promise.resolve() },
  });
}

/** "same" only with proof: this boot, this pid, this start time. */
function sameProcess(attachment: LocalAttachment): "same" | "gone" | "unknown" {
  const current = processStartTime(attachment.pid);
  if (current === undefined) return processExists(attachment.pid) ? "unknown" : "gone";
  if (attachment.startTime === undefined || attachment.bootId === undefined) return "unknown";
  return current === attachment.startTime && bootId() === attachment.bootId ? "same" : "gone";
}

/**
 * Applies `keep_workspaces`. Only folders where this configuration puts
 * this run's files are removed: a stored path is never trusted with rm.
 */
async function finish(config: ExecutionConfig["local"], attachment: LocalAttachment, success: boolean, plan: RecoveryPlan, runId: string): Promise<RecoveryPlan> {
  const paths = runPaths(config, runId);
  const ours = paths.workspace === attachment.workspace && paths.runDir === dirname(attachment.resultFile);
  if (ours && !keepsWorkspace(config.keepWorkspaces, success)) await removeRunFiles(paths);
  return plan;
}
