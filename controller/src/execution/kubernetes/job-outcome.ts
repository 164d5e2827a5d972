import type { V1Job, V1Pod } from "@kubernetes/client-node";
import type { EngineExit } from "../../engines/engine.js";
import type { CheckoutOutcome } from "../../repositories/checkout-outcome.js";
import { checkoutFailure, splitGitLine } from "./checkout-status.js";
import { engineTerminated, jobCondition, timeMs } from "./job-status.js";
import { readTerminationMessage, tooLargeProblem } from "./termination-message.js";

/** What is known of a Job that ended (or went away). */
export interface JobEnd {
  /** The Job as last seen; undefined when it was never seen. */
  job: V1Job | undefined;
  /** The Job was deleted before it finished. */
  jobDeleted: boolean;
  /** The engine's pod, as read at the end or last seen. */
  pod: V1Pod | undefined;
  /** The pod was deleted before its container ended. */
  podLost: boolean;
  /** A reason the run was failed early (a container that can never be created). */
  fatal: string | undefined;
}

/** Settings the messages name. */
export interface OutcomeContext {
  activeDeadlineSeconds: number;
  memoryLimit: string | undefined;
  /** Duration when the pod does not say. */
  fallbackDurationMs: number;
}

/** What Kubernetes did to a run, in words. */
export interface Problem {
  text: string;
  /** True when what the engine's parser says of the exit (code 137, no result file) adds to it. */
  withExit: boolean;
}

/** The engine's exit for its parser, and what Kubernetes did to the run. */
export interface JobOutcome {
  exit: EngineExit;
  /** Set when the cluster ended or lost the run; it leads the failure reason. */
  problem: Problem | undefined;
  /** What the wrapper did with the run's branch; undefined when the run has no checkout. */
  checkout?: CheckoutOutcome;
}

/**
 * Reads how the run ended from the Job's conditions and the engine
 * container's terminated state: its exit code, the result file from the
 * termination message, and a problem for the ends an exit code does not
 * explain (OOMKilled, DeadlineExceeded, a lost pod, a container that could
 * not start).
 */
export function jobOutcome(end: JobEnd, context: OutcomeContext): JobOutcome {
  const terminated = engineTerminated(end.pod);
  const split = splitGitLine(terminated?.message);
  const message = readTerminationMessage(split.rest);
  const started = timeMs(terminated?.startedAt);
  const finished = timeMs(terminated?.finishedAt);
  const exit: EngineExit = {
    exitCode: terminated?.exitCode,
    signal: undefined,
    resultFile: message.kind === "result" ? message.text : undefined,
    resultFileProblem: message.kind === "too-large" ? tooLargeProblem(message.bytes) : undefined,
    durationMs:
      started !== undefined && finished !== undefined ? Math.max(0, finished - started) : context.fallbackDurationMs,
  };
  const problem = problemOf(end, context, message.kind === "other" ? message.text : undefined);
  return { exit, problem, ...(split.checkout === undefined ? {} : { checkout: split.checkout }) };
}

function problemOf(end: JobEnd, context: OutcomeContext, foreignMessage: string | undefined): Problem | undefined {
  if (end.fatal !== undefined) return { text: end.fatal, withExit: false };
  const checkout = checkoutFailure(end.pod);
  if (checkout !== undefined) return { text: checkout, withExit: false };
  const failed = jobCondition(end.job, "Failed");
  const terminated = engineTerminated(end.pod);
  if (failed?.reason === "DeadlineExceeded") {
    return {
      text: `the Job ran longer than its activeDeadlineSeconds (${context.activeDeadlineSeconds} s) and Kubernetes stopped it (execution.kubernetes.active_deadline_seconds)`,
      withExit: false,
    };
  }
  // Its pod was then stopped (SIGTERM): the exit code says nothing more.
  if (end.jobDeleted) return { text: "its Job was deleted before the engine ended", withExit: false };
  if (terminated?.reason === "OOMKilled") {
    const limit = context.memoryLimit === undefined ? "" : `, memory limit ${context.memoryLimit}`;
    return {
      text: `the engine's container ran out of memory and was killed (OOMKilled${limit}); raise execution.kubernetes.resources.limits.memory`,
      withExit: true,
    };
  }
  if (terminated?.reason === "StartError" || terminated?.reason === "ContainerCannotRun") {
    return {
      text: `the engine's container could not start (${terminated.reason}: ${terminated.message ?? "no message"}); the image needs /bin/sh and the engine's command`,
      withExit: false,
    };
  }
  if (end.pod?.status?.reason === "Evicted")
    return { text: `the engine's pod was evicted (${end.pod.status.message ?? "no message"})`, withExit: false };
  if (terminated === undefined) {
    if (end.podLost)
      return {
        text: `the engine's pod was lost before it ended${disruption(end.pod)}: its node failed, or it was evicted or preempted`,
        withExit: false,
      };
    if (failed !== undefined)
      return {
        text: `the Job failed before the engine ended (${failed.reason ?? "no reason"}: ${failed.message ?? "no message"})`,
        withExit: false,
      };
  }
  if (foreignMessage !== undefined && terminated !== undefined && terminated.exitCode !== 0) {
    return {
      text: `the engine's container ended with code ${terminated.exitCode}: ${foreignMessage.slice(0, 500)}`,
      withExit: false,
    };
  }
  return undefined;
}

/** The DisruptionTarget condition Kubernetes sets on a pod it is about to remove, in words. */
function disruption(pod: V1Pod | undefined): string {
  const condition = pod?.status?.conditions?.find((c) => c.type === "DisruptionTarget" && c.status === "True");
  const reason = condition?.reason ?? pod?.status?.reason;
  if (reason === undefined) return "";
  const message = condition?.message ?? pod?.status?.message;
  return ` (${reason}${message === undefined ? "" : `: ${message}`})`;
}
