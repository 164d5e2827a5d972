import { appendFile } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname } from "node:path";
import type { Logger, TaskResult } from "@errand/channel-sdk";
import type { ExecutionConfig } from "../../config/controller-config.js";
import type { TaskRun } from "../../runs/task-run.js";
import type { RecoveryPlan, RunSpec } from "../execution-backend.js";
import { type LocalAttachment, parseAttachment } from "./attachment.js";
import type { LocalEngineExit } from "./finish-run.js";
import { identifyEngine } from "./identify-engine.js";
import { terminateGroup } from "./process-group.js";
import { readResultFile } from "./result-file.js";
import { keepsWorkspace, removeRunFiles, runPaths } from "./run-files.js";

/** Why every recovered run ends; the rest of the reason says what was found. */
export const RESTART_REASON = "controller restarted while the run was running";

/** What recoverLocalRun works with. */
interface Recovery {
  config: ExecutionConfig["local"];
  logger: Logger;
  run: TaskRun;
  spec: RunSpec;
  attachment: LocalAttachment;
}

/**
 * The fate of a run a dead controller left Running. The engine's output
 * went to the dead controller, so the run cannot be followed any more:
 *
 * - the engine still runs (same pid, start time and boot): its process
 *   group is stopped (SIGTERM, then SIGKILL) and the run fails;
 * - it ended and wrote a result file: the run is recorded with that result
 *   (a reattach handle whose `done` has already settled); processes it
 *   left in its group are stopped first;
 * - it ended without a result file, or nothing was recorded: the run fails.
 *
 * A process that cannot be proved to be the engine's (another host, a pid
 * now used by something else, no start time) is never signalled.
 */
export async function recoverLocalRun(
  config: ExecutionConfig["local"],
  logger: Logger,
  run: TaskRun,
  spec: RunSpec,
): Promise<RecoveryPlan> {
  const attachment = parseAttachment(run.attachment);
  if (attachment === undefined) return fail(`${RESTART_REASON}; no engine process was recorded for it`);
  if (attachment.hostname !== hostname())
    return fail(`${RESTART_REASON}; it ran on host ${attachment.hostname}, whose processes were not touched`);
  const recovery: Recovery = { config, logger, run, spec, attachment };
  const remains = identifyEngine(attachment);
  if (remains.kind === "unknown") {
    return fail(
      `${RESTART_REASON}; process ${attachment.pid} could not be proved to be its engine (no start time) and was left alone`,
    );
  }
  if (remains.kind === "running") {
    const stopped = await stopGroup(recovery, "stopping its process group");
    return settle(
      recovery,
      false,
      fail(
        `${RESTART_REASON}; ${stopped ? "its processes were stopped" : `its process group ${attachment.pgid} could not be stopped`}`,
      ),
    );
  }
  const leftovers =
    remains.kind === "leftovers"
    && (await stopGroup(
      recovery,
      `the engine had ended; stopping the ${remains.count === 1 ? "process" : `${remains.count} processes`} it left`,
    ));
  return fromResultFile(recovery, leftovers ? "; the processes it left were stopped" : "");
}

/** The run's end read from its result file, the engine having ended while the controller was down. */
async function fromResultFile(recovery: Recovery, stoppedNote: string): Promise<RecoveryPlan> {
  const { run, spec, attachment } = recovery;
  const read = readResultFile(attachment.resultFile);
  if (read.text === undefined) {
    const found = read.problem ?? "it had ended without writing a result";
    await note(attachment, `${RESTART_REASON}: ${found}`);
    return settle(recovery, false, fail(`${RESTART_REASON}; ${found}${stoppedNote}`));
  }
  const durationMs =
    run.startedAt !== undefined && read.modifiedAt !== undefined
      ? Math.max(0, Math.round(read.modifiedAt - run.startedAt))
      : undefined;
  const exit: LocalEngineExit = {
    exitCode: undefined,
    signal: undefined,
    exitUnknown: true,
    resultFile: read.text,
    durationMs: durationMs ?? 0,
    resultFileProblem: undefined,
  };
  let result: TaskResult;
  try {
    result = spec.engine.parser().finish(exit);
  } catch (error) {
    return settle(
      recovery,
      false,
      fail(`${RESTART_REASON}; its result file could not be read: ${(error as Error).message}`),
    );
  }
  if (!result.success)
    result = {
      ...result,
      failureReason: `${RESTART_REASON}; ${result.failureReason || "the engine reported a failure"}`,
    };
  if (result.durationMs === undefined && durationMs !== undefined) result = { ...result, durationMs };
  await note(
    attachment,
    `${RESTART_REASON}: it had ended; recorded from its result file (${result.success ? "succeeded" : "failed"})`,
  );
  const outcome = { result, stoppedFor: undefined };
  const handle = {
    attachment: { ...attachment },
    logRef: attachment.logFile,
    done: Promise.resolve(outcome),
    stop: () => Promise.resolve(),
  };
  return settle(recovery, result.success, { action: "reattach", handle });
}

/** SIGTERM, then SIGKILL to the recorded group; false when it could not be signalled. */
async function stopGroup({ config, logger, run, attachment }: Recovery, what: string): Promise<boolean> {
  await note(attachment, `${RESTART_REASON}: ${what} (process group ${attachment.pgid})`);
  try {
    await terminateGroup(attachment.pgid, config.killGraceMs);
    return true;
  } catch (error) {
    logger.error("could not stop the process group of a recovered run", {
      runId: run.id,
      pgid: attachment.pgid,
      error,
    });
    return false;
  }
}

/**
 * Applies `keep_workspaces`. Only the folders where this configuration
 * puts this run's files are removed: a stored path is never trusted with rm.
 */
async function settle(
  { config, run, attachment }: Recovery,
  success: boolean,
  plan: RecoveryPlan,
): Promise<RecoveryPlan> {
  const paths = runPaths(config, run.id);
  const ours = paths.workspace === attachment.workspace && paths.runDir === dirname(attachment.resultFile);
  if (ours && !keepsWorkspace(config.keepWorkspaces, success)) removeRunFiles(paths);
  return plan;
}

function fail(reason: string): RecoveryPlan {
  return { action: "fail", reason };
}

/** A line in the run's log, so that `errand runs show` tells what the restart did. */
function note(attachment: LocalAttachment, text: string): Promise<void> {
  return appendFile(attachment.logFile, `[errand] ${text}\n`).catch(() => undefined);
}
