import type { Logger } from "@errand/channel-sdk";
import type { OutputParser } from "../../engines/engine.js";
import { apiProblem } from "../../kube/kube-api.js";
import type { RunOutcome } from "../execution-backend.js";
import { checkoutSecretName, deleteCheckoutSecret } from "./checkout-secret.js";
import { jobOutcome } from "./job-outcome.js";
import type { JobRunLog } from "./job-run-log.js";
import type { JobRunState } from "./job-run-state.js";
import { engineStarted, engineTerminated, timeMs } from "./job-status.js";
import { LOG_DRAIN_MS, type RunContext } from "./run-context.js";
import { readRunPod } from "./run-pod.js";
import { runResult } from "./run-result.js";
import { settlesWithin } from "./settles-within.js";

/** How long the log of a pod that is gone may still take to end. */
const GONE_POD_DRAIN_MS = 500;

/** What {@link finishJobRun} reads the run's end from. */
export interface JobRunEndParts {
  runId: string;
  jobName: string;
  uid: string;
  parser: OutputParser;
  startedAt: number;
  state: JobRunState;
  log: JobRunLog;
  /** Stops listening to the shared watches. */
  unsubscribe(): void;
  logger: Logger;
}

/**
 * Waits for the run's end, then makes its outcome: the engine container's
 * end and termination message, the log read to its end through the parser.
 * Never rejects: a bug while finishing still ends the run, Failed.
 */
export function finishJobRun(context: RunContext, parts: JobRunEndParts): Promise<RunOutcome> {
  const { state, log, logger } = parts;
  return (async (): Promise<RunOutcome> => {
    await state.end.happened;
    state.ended = true;
    if (state.detached) {
      parts.unsubscribe();
      log.stop();
      logger.info("left the run's Job running for the next controller to re-attach");
      return {
        result: { success: false, summary: "", pullRequestUrl: "", failureReason: "detached: the Job runs on" },
        stoppedFor: undefined,
        detached: true,
      };
    }
    const outcome = await outcomeOf(context, parts);
    // The credential is of no use once the pod ended: it goes now, not with the Job at its TTL.
    if (context.repositories !== undefined)
      await deleteCheckoutSecret(context, checkoutSecretName(parts.jobName), logger);
    return outcome;
  })().catch((error: unknown): RunOutcome => {
    // Only a bug gets here; the run must still end.
    logger.error("the run could not be finished", { error });
    parts.unsubscribe();
    log.stop();
    const failureReason = `internal error while finishing the run: ${(error as Error).message}`;
    return { result: { success: false, summary: "", pullRequestUrl: "", failureReason }, stoppedFor: state.stopReason };
  });
}

/** The outcome of a run whose Job finished, is gone or was stopped. */
async function outcomeOf(context: RunContext, parts: JobRunEndParts): Promise<RunOutcome> {
  const { state, log, logger } = parts;
  const { stopReason } = state;
  const fresh = await readRunPod(context.clients, context.namespace, parts.runId, parts.uid).then(
    (found) => ({ pod: found, listed: true }),
    (error: unknown) => {
      logger.debug("could not read the run's pod; using the last one seen", { error: apiProblem(error).message });
      return { pod: undefined, listed: false };
    },
  );
  // The pod is gone, and the pods watch (a stream of its own) has not told
  // its last state yet: wait a little for it, it says how the pod was lost.
  const explained = stopReason !== undefined || state.jobDeleted || state.fatal !== undefined;
  if (
    !explained
    && fresh.listed
    && fresh.pod === undefined
    && state.pod !== undefined
    && engineTerminated(state.pod) === undefined
  )
    await settlesWithin(state.podDeleted.happened, LOG_DRAIN_MS);
  const finalPod = fresh.pod ?? state.pod;
  if (!log.following && engineStarted(finalPod) && finalPod?.metadata?.name !== undefined)
    log.follow(finalPod.metadata.name);
  // A pod that is gone has no log left to read: a stream still open to it is dead.
  await log.finish(fresh.listed && fresh.pod === undefined ? GONE_POD_DRAIN_MS : LOG_DRAIN_MS);
  parts.unsubscribe();
  const fallbackDurationMs = Math.max(
    0,
    (timeMs(state.job?.status?.completionTime) ?? context.now()) - parts.startedAt,
  );
  const outcome = jobOutcome(
    {
      job: state.job,
      jobDeleted: state.jobDeleted && stopReason === undefined,
      pod: finalPod,
      podLost: state.podLost,
      fatal: state.fatal,
    },
    {
      activeDeadlineSeconds: context.activeDeadlineSeconds,
      memoryLimit: context.config.resources.limits.memory,
      fallbackDurationMs,
    },
  );
  const result = runResult(parts.parser, outcome, stopReason);
  logger.info("the run's Job ended", {
    success: result.success,
    reason: result.failureReason || undefined,
    stopped_for: stopReason,
  });
  return { result, stoppedFor: stopReason, ...(outcome.checkout === undefined ? {} : { checkout: outcome.checkout }) };
}
