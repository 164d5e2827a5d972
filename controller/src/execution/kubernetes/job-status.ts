import type {
  V1ContainerStateTerminated,
  V1ContainerStatus,
  V1Job,
  V1JobCondition,
  V1Pod,
} from "@kubernetes/client-node";
import { ENGINE_CONTAINER } from "./container-paths.js";

/** A true condition of the Job of this type (`Complete`, `Failed`). */
export function jobCondition(job: V1Job | undefined, type: "Complete" | "Failed"): V1JobCondition | undefined {
  return job?.status?.conditions?.find((c) => c.type === type && c.status === "True");
}

/** True once the Job has finished, well or not. */
export function jobFinished(job: V1Job | undefined): boolean {
  return jobCondition(job, "Complete") !== undefined || jobCondition(job, "Failed") !== undefined;
}

/** The engine container's status in the pod. */
function engineStatus(pod: V1Pod | undefined): V1ContainerStatus | undefined {
  return pod?.status?.containerStatuses?.find((c) => c.name === ENGINE_CONTAINER);
}

/** How the engine container ended, when it did. */
export function engineTerminated(pod: V1Pod | undefined): V1ContainerStateTerminated | undefined {
  const status = engineStatus(pod);
  return status?.state?.terminated ?? status?.lastState?.terminated;
}

/** True once the engine container has started (its log can be read). */
export function engineStarted(pod: V1Pod | undefined): boolean {
  const state = engineStatus(pod)?.state;
  return state?.running !== undefined || state?.terminated !== undefined;
}

/** Milliseconds since the epoch of an API time (a Date from a list, a string from a watch). */
export function timeMs(value: Date | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Waiting reasons that never clear by themselves: the run is failed at
 * once instead of waiting for its deadline. (An image pull that fails
 * is retried by the kubelet and may succeed; it is only noted.)
 */
const HOPELESS_WAITING = new Map<string, string>([
  ["InvalidImageName", "check engines.<name>.image"],
  [
    "ErrImageNeverPull",
    "the image is not on the node and image_pull_policy is Never: pull it there, or change execution.kubernetes.image_pull_policy",
  ],
  ["CreateContainerConfigError", 'usually a missing Secret or key: see docs/kubernetes-backend.md, "Secrets"'],
  ["CreateContainerError", "see the message; check the image's user and the engine's command"],
]);

/**
 * The statuses a pod's start can wait on: its init containers (the
 * checkout) run first, and while they wait the engine container only says
 * PodInitializing.
 */
function startingStatuses(pod: V1Pod | undefined): V1ContainerStatus[] {
  const engine = engineStatus(pod);
  return [...(pod?.status?.initContainerStatuses ?? []), ...(engine === undefined ? [] : [engine])];
}

/** Why the engine (or its checkout) container cannot start, when its waiting reason says it never will; else undefined. */
export function hopelessWaiting(pod: V1Pod | undefined): string | undefined {
  for (const status of startingStatuses(pod)) {
    const waiting = status.state?.waiting;
    const hint = waiting?.reason === undefined ? undefined : HOPELESS_WAITING.get(waiting.reason);
    if (waiting === undefined || hint === undefined) continue;
    const which = status.name === ENGINE_CONTAINER ? "the engine's container" : `the ${status.name} init container`;
    return `${which} could not be created (${waiting.reason}: ${waiting.message ?? "no message"}); ${hint}`;
  }
  return undefined;
}

/** A waiting reason worth a line in the log (an image being pulled, a pull that failed). */
export function waitingNote(pod: V1Pod | undefined): string | undefined {
  for (const status of startingStatuses(pod)) {
    const waiting = status.state?.waiting;
    if (waiting?.reason === undefined || waiting.reason === "ContainerCreating" || waiting.reason === "PodInitializing")
      continue;
    return `${waiting.reason}${waiting.message === undefined ? "" : `: ${waiting.message}`}`;
  }
  return undefined;
}
