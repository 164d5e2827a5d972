import { mkdirSync } from "node:fs";
import type { Logger } from "@errand/channel-sdk";
import type { ExecutionConfig } from "../../config/controller-config.js";
import type { EngineInput, EngineInvocation, OutputParser } from "../../engines/engine.js";
import { ControllerError, ControllerErrorCode } from "../../errors.js";
import { EngineStartError } from "../engine-start-error.js";
import type { RunSpec } from "../execution-backend.js";
import { claimWorkspace, isSafeRunId, type RunPaths, removeRunFiles, runPaths, writeRunFiles } from "./run-files.js";
import { openRunLog, type RunLog } from "./run-log.js";
import type { SpareFolders } from "./spare-folders.js";

/**
 * Log folders made by this process: made once, not at every run. One
 * removed while the controller runs is made again (openRunLog's ENOENT).
 */
const logDirsMade = new Set<string>();

/** A run ready to spawn: its files written, its log open, its command and parser made. */
export interface PreparedRun {
  paths: RunPaths;
  log: RunLog;
  invocation: EngineInvocation;
  parser: OutputParser;
}

/**
 * Everything before the spawn (the run's folders from `spares` when it has
 * some). On failure nothing is left behind but the
 * log, which says why (so `errand runs show` can tell), and a workspace
 * that was there before (never removed: it is not ours).
 */
export async function prepareRun(
  config: ExecutionConfig["local"],
  spec: RunSpec,
  logger: Logger,
  spares?: SpareFolders,
): Promise<PreparedRun> {
  const runId = spec.run.id;
  const engineName = spec.engine.name;
  if (!isSafeRunId(runId)) {
    throw new ControllerError(
      ControllerErrorCode.Internal,
      `run id ${JSON.stringify(runId)} cannot be used as a file name`,
    );
  }
  const paths = runPaths(config, runId);
  let log: RunLog;
  try {
    if (!logDirsMade.has(config.logDir)) {
      mkdirSync(config.logDir, { recursive: true });
      logDirsMade.add(config.logDir);
    }
    log = openRunLog({
      path: paths.log,
      maxBytes: config.logMaxBytes,
      secret: spec.apiKey,
      moreSecrets: () => spec.workspace?.secrets() ?? [],
      logger,
    });
  } catch (error) {
    throw new EngineStartError(
      `engine "${engineName}" could not be started: the run log ${paths.log} could not be created: ${(error as Error).message}`,
      {
        cause: error,
        hint: "check that execution.local.log_dir is a writable folder",
      },
    );
  }
  let claimed = false;
  try {
    claimWorkspace(paths, engineName, spares);
    claimed = true;
    try {
      writeRunFiles(paths, spec.ticket, spec.prompt, spares);
    } catch (error) {
      throw new EngineStartError(
        `engine "${engineName}" could not be started: the run's files in ${paths.runDir} could not be written: ${(error as Error).message}`,
        {
          cause: error,
          hint: "check that execution.local.workspace_dir is writable and its disk has space",
        },
      );
    }
    if (spec.workspace !== undefined) await spec.workspace.prepare(paths.workspace, (line) => log.note(line));
    const input: EngineInput = {
      ticket: spec.ticket,
      runId,
      prompt: spec.prompt,
      workspace: paths.workspace,
      files: { prompt: paths.prompt, ticket: paths.ticket, result: paths.result },
      apiKey: spec.apiKey,
      // Only here: the local backend shares the controller's HOME, where Claude Code keeps its sessions.
      ...resumeFrom(spec.run, config),
    };
    const invocation = fromEngine(engineName, "build its command", () => spec.engine.invocation(input));
    const parser = fromEngine(engineName, "make its output parser", () => spec.engine.parser());
    return { paths, log, invocation, parser };
  } catch (error) {
    await abandon({ paths, log }, error, claimed);
    throw error;
  }
}

/** Notes why the start failed in the run log, closes it, and removes what this start made. */
export async function abandon(
  run: { paths: RunPaths; log: RunLog },
  error: unknown,
  removeFiles: boolean,
): Promise<void> {
  run.log.note(`could not start: ${error instanceof Error ? error.message : String(error)}`);
  run.log.close();
  if (removeFiles) removeRunFiles(run.paths);
}

function fromEngine<T>(engineName: string, what: string, make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (error instanceof ControllerError) throw error;
    throw new EngineStartError(`engine "${engineName}" could not ${what}: ${(error as Error).message}`, {
      cause: error,
      hint: `check the settings under engines.${engineName}`,
    });
  }
}

/** A follow-up's parent session and the workspace it was started in (both on this host), when it has one. */
function resumeFrom(run: RunSpec["run"], config: ExecutionConfig["local"]): Partial<EngineInput> {
  const sessionId = run.followUp?.resumeSessionId;
  if (sessionId === undefined || run.parentRunId === undefined || !isSafeRunId(run.parentRunId)) return {};
  return { resumeSessionId: sessionId, resumeWorkspace: runPaths(config, run.parentRunId).workspace };
}
