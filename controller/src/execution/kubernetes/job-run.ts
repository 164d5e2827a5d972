import type { OutputParser } from "../../engines/engine.js";
import { apiProblem } from "../../kube/kube-api.js";
import type { RunHooks, RunOutcome, StopReason } from "../execution-backend.js";
import { deleteJob } from "./delete-job.js";
import { finishJobRun } from "./job-run-end.js";
import { jobRunListener } from "./job-run-listener.js";
import { createJobRunLog } from "./job-run-log.js";
import { createJobRunState, markJobGone } from "./job-run-state.js";
import type { RunContext } from "./run-context.js";
import { settlesWithin } from "./settles-within.js";

/** The run a Job carries, as {@link attachJobRun} follows it. */
export interface JobRunInput {
  runId: string;
  jobName: string;
  uid: string;
  parser: OutputParser;
  hooks: RunHooks;
  startedAt: number;
  /**
   * A re-attached run's log is parsed from its first line (the parser needs
   * all of it), but progress logged before this time was told already.
   */
  quietBefore: number | undefined;
}

/** What {@link attachJobRun} returns: the parts of a RunHandle that follow the Job. */
export interface JobRun {
  done: Promise<RunOutcome>;
  stop(reason: StopReason): Promise<void>;
  /** Stops following the Job and leaves it running (a controller shutting down); `done` settles with `detached`. */
  detach(): void;
}

/**
 * Follows one run's Job through the shared watches: the pod's log through
 * the engine's parser while it runs, then, once the Job has finished (or
 * is gone), the engine container's end and termination message into the
 * run's result. `stop` deletes the Job with foreground propagation (its
 * pod goes first, SIGTERM then SIGKILL after the grace period) and
 * resolves once the Job is gone. The watches' events go to the listener
 * (job-run-listener.ts), the log through the parser (job-run-log.ts), the
 * end into the run's outcome (job-run-end.ts).
 */
export function attachJobRun(context: RunContext, input: JobRunInput): JobRun {
  const { jobName, uid } = input;
  const logger = context.logger.child({ runId: input.runId, job: jobName });
  const state = createJobRunState();
  const log = createJobRunLog(context, input, logger);
  let stopping: Promise<void> | undefined;
  const remove = (): Promise<void> =>
    deleteJob(context, jobName, uid, logger).then((found) => {
      if (!found) state.gone.fire();
    });

  const view = context.view();
  const unsubscribe = view.subscribe(jobName, jobRunListener({ uid, state, log, remove: () => void remove(), logger }));
  // A Job deleted before the watches first listed is in no event: look once.
  void view.synced.then(async () => {
    if (state.job !== undefined || state.ended) return;
    try {
      await context.clients.batch.readNamespacedJob({ name: jobName, namespace: context.namespace });
    } catch (error) {
      if (apiProblem(error).status === 404) markJobGone(state, undefined);
    }
  });
  const done = finishJobRun(context, {
    runId: input.runId,
    jobName,
    uid,
    parser: input.parser,
    startedAt: input.startedAt,
    state,
    log,
    unsubscribe,
    logger,
  });

  return {
    done,
    stop(reason) {
      if (stopping !== undefined) return stopping;
      if (state.ended) return done.then(() => undefined);
      state.stopReason = reason;
      stopping = (async () => {
        logger.info("stopping the run: deleting its Job (foreground)", { reason });
        await remove();
        const bound = (context.config.terminationGraceSeconds + 60) * 1000;
        if (!(await settlesWithin(state.gone.happened, bound)))
          logger.warn("the Job was not gone in time after its deletion; the run ends anyway", { bound_ms: bound });
        state.end.fire();
      })();
      return stopping;
    },
    detach() {
      if (state.ended || stopping !== undefined) return;
      state.detached = true;
      state.end.fire();
    },
  };
}
