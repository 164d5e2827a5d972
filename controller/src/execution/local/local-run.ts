import { hostname } from "node:os";
import type { Logger } from "@errand/channel-sdk";
import type { ExecutionConfig } from "../../config/controller-config.js";
import type { RunHandle, RunHooks, RunOutcome, RunSpec, StopReason } from "../execution-backend.js";
import { type LocalAttachment, toRecord } from "./attachment.js";
import { describeInvocation } from "./describe-invocation.js";
import { engineEnv } from "./engine-env.js";
import { finishRun } from "./finish-run.js";
import { abandon, type PreparedRun, prepareRun } from "./prepare-run.js";
import { bootId, processStartTime } from "./proc-stat.js";
import { groupAlive, terminateGroup } from "./process-group.js";
import { type RunOutput, wireOutput } from "./run-output.js";
import type { SpareFolders } from "./spare-folders.js";
import { spawnEngine } from "./spawn-engine.js";
import type { SpawnedExit, Spawner } from "./spawner.js";
import { SPAWNER_LOST_REASON } from "./stop-reasons.js";

/** How the engine ended; `lost` when the spawner died first and no exit status came. */
type EngineEnd = SpawnedExit & { lost: boolean };

/** What a local run needs from its backend. */
export interface LocalRunContext {
  config: ExecutionConfig["local"];
  logger: Logger;
  now: () => number;
  spawner: Spawner;
  /** Keeps a finished run's clean-up (file removal, log close) for the backend's close() to wait for. */
  track(cleanup: Promise<void>): void;
  /** Emptied folders of finished runs, for the next runs to take. */
  spares?: SpareFolders;
}

/** How long the output pipes may stay open once the process group is gone. */
const DRAIN_BOUND_MS = 2000;

/**
 * Starts one engine process and returns its handle once it has spawned.
 * The process leads its own group; whatever it leaves running when it
 * exits is stopped like a cancelled run (SIGTERM, then SIGKILL), so a run
 * that ended has nothing left running.
 */
export async function startLocalRun(context: LocalRunContext, spec: RunSpec, hooks: RunHooks): Promise<RunHandle> {
  const { config, now } = context;
  const logger = context.logger.child({ runId: spec.run.id, engine: spec.engine.name });
  const prepared = await prepareRun(config, spec, logger, context.spares);
  const { paths, log, invocation, parser } = prepared;
  log.note(`starting ${describeInvocation(invocation)} in ${paths.workspace}`);
  const output = wireOutput(parser, hooks, log, logger);
  let spawned: { pid: number; exited: Promise<EngineEnd> };
  try {
    spawned = await spawnRun(context, spec, prepared, output);
  } catch (error) {
    await abandonUnspawned(spec, prepared, error);
    throw error;
  }
  const { pid, exited } = spawned;
  const startedAt = now();
  const attachment = attachmentOf(pid, paths);
  log.note(`started: pid ${pid}, process group ${pid}`);

  let stopReason: StopReason | undefined;
  let stopping: Promise<void> | undefined;
  let hasExited = false;
  const terminate = (why: string): Promise<void> => terminateRun(pid, why, config.killGraceMs, log, logger);

  const done: Promise<RunOutcome> = (async () => {
    const { lost, ...exit } = await exited;
    hasExited = true;
    const durationMs = now() - startedAt;
    let stoppedAfterLoss = false;
    if (lost) {
      // As after a controller restart: a run that cannot be followed is stopped and fails,
      // unless the engine had already ended and left its result.
      logger.error("the engine spawner died while the run was running; resolving the run as a restart would", { pid });
      log.note(`${SPAWNER_LOST_REASON}; its output and exit status are lost`);
      if (stopping !== undefined) await stopping;
      else if (groupAlive(pid)) {
        await terminate("the engine's process group still runs");
        stoppedAfterLoss = true;
      }
    } else if (stopping !== undefined) await stopping;
    else if (groupAlive(pid)) await terminate("the engine exited and left processes in its group");
    await output.drain(DRAIN_BOUND_MS, () => context.spawner.closeOutput(pid));
    const finished = await finishRun({
      config,
      logger,
      log,
      paths,
      parser,
      exit,
      durationMs,
      stopReason,
      lost: lost ? { stopped: stoppedAfterLoss } : undefined,
      remove: (folders) => context.spawner.remove(folders),
      workspace: spec.workspace,
      spares: context.spares,
    });
    context.track(finished.cleanedUp);
    return finished.outcome;
  })().catch(async (error: unknown) => {
    // Only a bug gets here (finishRun never rejects); the run must still end.
    logger.error("the run could not be finished", { error });
    log.close();
    const failureReason = `internal error while finishing the run: ${(error as Error).message}`;
    return { result: { success: false, summary: "", pullRequestUrl: "", failureReason }, stoppedFor: stopReason };
  });

  return {
    attachment: toRecord(attachment),
    logRef: paths.log,
    ...(spec.workspace?.branch() === undefined ? {} : { branch: spec.workspace.branch() }),
    done,
    stop(reason) {
      if (stopping !== undefined) return stopping;
      if (hasExited) return done.then(() => undefined);
      stopReason = reason;
      stopping = terminate(`stopping (${reason})`).then(() => exited.then(() => undefined));
      return stopping;
    },
  };
}

/** Spawns the engine through the spawner; `exited` settles with how it ended, or `lost` when the spawner died first. */
async function spawnRun(
  context: LocalRunContext,
  spec: RunSpec,
  prepared: PreparedRun,
  output: RunOutput,
): Promise<{ pid: number; exited: Promise<EngineEnd> }> {
  const { paths, invocation } = prepared;
  let settleExit: (exit: EngineEnd) => void = () => undefined;
  const exited = new Promise<EngineEnd>((resolve) => {
    settleExit = resolve;
  });
  const extra = spec.workspace === undefined ? {} : await spec.workspace.engineEnv();
  const env = engineEnv(spec.run.id, paths, { ...invocation.env, ...extra });
  const pid = await spawnEngine(
    context.spawner,
    { engineName: spec.engine.name, invocation, cwd: paths.workspace, env },
    {
      data: output.data,
      end: output.end,
      exit: (exit) => settleExit({ ...exit, lost: false }),
      lost: () => {
        output.end("stdout");
        output.end("stderr");
        settleExit({ exitCode: undefined, signal: undefined, lost: true });
      },
    },
  );
  return { pid, exited };
}

/** A run whose engine could not be spawned: its files go, and what its workspace's preparation made (credentials). */
async function abandonUnspawned(spec: RunSpec, prepared: PreparedRun, error: unknown): Promise<void> {
  const failureReason = error instanceof Error ? error.message : String(error);
  const notStarted = { success: false, summary: "", pullRequestUrl: "", failureReason };
  await spec.workspace?.finish(prepared.paths.workspace, notStarted, (line) => prepared.log.note(line));
  await abandon(prepared, error, true);
}

/** What a restarted controller needs to find the run's processes and files again. */
function attachmentOf(pid: number, paths: PreparedRun["paths"]): LocalAttachment {
  return {
    pid,
    pgid: pid,
    startTime: processStartTime(pid),
    bootId: bootId(),
    hostname: hostname(),
    workspace: paths.workspace,
    resultFile: paths.result,
    logFile: paths.log,
  };
}

/** SIGTERM to the run's process group, then SIGKILL after the grace period; a failure to signal is logged, not thrown. */
async function terminateRun(
  pid: number,
  why: string,
  killGraceMs: number,
  log: PreparedRun["log"],
  logger: Logger,
): Promise<void> {
  log.note(`${why}: SIGTERM to process group ${pid}`);
  try {
    if ((await terminateGroup(pid, killGraceMs)) === "killed") {
      log.note(`processes left ${killGraceMs} ms after SIGTERM: SIGKILL to process group ${pid}`);
    }
  } catch (error) {
    logger.error("could not signal the engine's process group", { pid, error });
    log.note(`could not signal process group ${pid}: ${(error as Error).message}`);
  }
}
