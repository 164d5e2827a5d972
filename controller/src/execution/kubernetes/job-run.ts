import type { V1Job, V1Pod } from "@kubernetes/client-node";
import type { OutputParser } from "../../engines/engine.js";
import { apiProblem } from "../../kube/kube-api.js";
import type { RunHooks, RunOutcome, StopReason } from "../execution-backend.js";
import type { JobListener } from "./cluster-view.js";
import { ENGINE_CONTAINER } from "./container-paths.js";
import { deleteJob } from "./delete-job.js";
import { jobOutcome } from "./job-outcome.js";
import { engineStarted, engineTerminated, hopelessWaiting, jobFinished, timeMs, waitingNote } from "./job-status.js";
import { followPodLog, type PodLogFollower } from "./pod-log-follower.js";
import { LOG_DRAIN_MS, type RunContext } from "./run-context.js";
import { readRunPod } from "./run-pod.js";
import { runResult } from "./run-result.js";
import { settlesWithin } from "./settles-within.js";

/** How long the log of a pod that is gone may still take to end. */
const GONE_POD_DRAIN_MS = 500;

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
 * resolves once the Job is gone.
 */
export function attachJobRun(context: RunContext, input: JobRunInput): JobRun {
  const { jobName, uid } = input;
  const logger = context.logger.child({ runId: input.runId, job: jobName });
  let job: V1Job | undefined;
  let jobDeleted = false;
  let pod: V1Pod | undefined;
  let podLost = false;
  let podDeletedNow: () => void = () => undefined;
  const podDeleted = new Promise<void>((resolve) => (podDeletedNow = resolve));
  let fatal: string | undefined;
  let follower: PodLogFollower | undefined;
  let stopReason: StopReason | undefined;
  let stopping: Promise<void> | undefined;
  let ended = false;
  let detached = false;
  let lastNote: string | undefined;
  let endNow: () => void = () => undefined;
  const end = new Promise<void>((resolve) => (endNow = resolve));
  let goneNow: () => void = () => undefined;
  const gone = new Promise<void>((resolve) => (goneNow = resolve));
  const complained = new Set<string>();
  const complain = (what: string, error: unknown): void => {
    if (complained.has(what)) return;
    complained.add(what);
    logger.warn(`${what} threw; later failures of this run are not logged`, { error });
  };

  const onLine = (text: string, atMs: number | undefined): void => {
    let events;
    try {
      events = input.parser.line("stdout", text);
    } catch (error) {
      complain("the engine's output parser", error);
      return;
    }
    const quiet = input.quietBefore !== undefined && atMs !== undefined && atMs < input.quietBefore;
    for (const event of events) {
      if (quiet && event.kind === "progress") continue;
      try {
        input.hooks.onEvent(event);
      } catch (error) {
        complain("a run hook", error);
      }
    }
  };
  const follow = (podName: string): void => {
    follower = followPodLog({ kubeConfig: context.clients.kubeConfig, namespace: context.namespace, pod: podName, container: ENGINE_CONTAINER, onLine, logger, retryMs: context.retryMs });
  };
  const remove = (): Promise<void> =>
    deleteJob(context, jobName, uid, logger).then((found) => {
      if (!found) goneNow();
    });

  const jobGone = (last: V1Job | undefined): void => {
    if (!jobFinished(last)) jobDeleted = true;
    goneNow();
    endNow();
  };
  const listener: JobListener = {
    job(next, deleted) {
      const ours = next.metadata?.uid === uid;
      if (ours && !deleted) {
        job = next;
        if (jobFinished(next)) endNow();
      } else if (ours) {
        job = next;
        jobGone(next);
      } else if (!deleted && job !== undefined) {
        // Another Job under our name: ours was deleted while the watch was away.
        jobGone(job);
      }
    },
    pod(next, deleted) {
      if (!next.metadata?.ownerReferences?.some((ref) => ref.uid === uid)) return;
      pod = next;
      if (deleted) {
        if (engineTerminated(next) === undefined) podLost = true;
        podDeletedNow();
        return;
      }
      if (follower === undefined && engineStarted(next) && next.metadata.name !== undefined) follow(next.metadata.name);
      const hopeless = hopelessWaiting(next);
      if (hopeless !== undefined && fatal === undefined && stopReason === undefined) {
        fatal = hopeless;
        logger.warn("the engine's container cannot be created; deleting the Job", { reason: hopeless });
        void remove();
      }
      const note = waitingNote(next);
      if (note !== undefined && note !== lastNote) logger.info("the engine's container is waiting", { reason: note });
      lastNote = note;
    },
  };
  const view = context.view();
  const unsubscribe = view.subscribe(jobName, listener);
  // A Job deleted before the watches first listed is in no event: look once.
  void view.synced.then(async () => {
    if (job !== undefined || ended) return;
    try {
      await context.clients.batch.readNamespacedJob({ name: jobName, namespace: context.namespace });
    } catch (error) {
      if (apiProblem(error).status === 404) jobGone(undefined);
    }
  });

  const done = (async (): Promise<RunOutcome> => {
    await end;
    ended = true;
    if (detached) {
      unsubscribe();
      follower?.stop();
      logger.info("left the run's Job running for the next controller to re-attach");
      return { result: { success: false, summary: "", pullRequestUrl: "", failureReason: "detached: the Job runs on" }, stoppedFor: undefined, detached: true };
    }
    const fresh = await readRunPod(context.clients, context.namespace, input.runId, uid).then(
      (found) => ({ pod: found, listed: true }),
      (error: unknown) => {
        logger.debug("could not read the run's pod; using the last one seen", { error: apiProblem(error).message });
        return { pod: undefined, listed: false };
      },
    );
    // The pod is gone, and the pods watch (a stream of its own) has not told
    // its last state yet: wait a little for it, it says how the pod was lost.
    const explained = stopReason !== undefined || jobDeleted || fatal !== undefined;
    if (!explained && fresh.listed && fresh.pod === undefined && pod !== undefined && engineTerminated(pod) === undefined) await settlesWithin(podDeleted, LOG_DRAIN_MS);
    const finalPod = fresh.pod ?? pod;
    if (follower === undefined && engineStarted(finalPod) && finalPod?.metadata?.name !== undefined) follow(finalPod.metadata.name);
    // A pod that is gone has no log left to read: a stream still open to it is dead.
    await follower?.finish(fresh.listed && fresh.pod === undefined ? GONE_POD_DRAIN_MS : LOG_DRAIN_MS);
    unsubscribe();
    const fallbackDurationMs = Math.max(0, (timeMs(job?.status?.completionTime) ?? context.now()) - input.startedAt);
    const outcome = jobOutcome(
      { job, jobDeleted: jobDeleted && stopReason === undefined, pod: finalPod, podLost, fatal },
      { activeDeadlineSeconds: context.activeDeadlineSeconds, memoryLimit: context.config.resources.limits.memory, fallbackDurationMs },
    );
    const result = runResult(input.parser, outcome, stopReason);
    logger.info("the run's Job ended", { success: result.success, reason: result.failureReason || undefined, stopped_for: stopReason });
    return { result, stoppedFor: stopReason };
  })().catch((error: unknown): RunOutcome => {
    // Only a bug gets here; the run must still end.
    logger.error("the run could not be finished", { error });
    unsubscribe();
    follower?.stop();
    const failureReason = `internal error while finishing the run: ${(error as Error).message}`;
    return { result: { success: false, summary: "", pullRequestUrl: "", failureReason }, stoppedFor: stopReason };
  });

  return {
    done,
    stop(reason) {
      if (stopping !== undefined) return stopping;
      if (ended) return done.then(() => undefined);
      stopReason = reason;
      stopping = (async () => {
        logger.info("stopping the run: deleting its Job (foreground)", { reason });
        await remove();
        const bound = (context.config.terminationGraceSeconds + 60) * 1000;
        if (!(await settlesWithin(gone, bound))) logger.warn("the Job was not gone in time after its deletion; the run ends anyway", { bound_ms: bound });
        endNow();
      })();
      return stopping;
    },
    detach() {
      if (ended || stopping !== undefined) return;
      detached = true;
      endNow();
    },
  };
}
