import type { V1Job, V1Pod } from "@kubernetes/client-node";
import type { StopReason } from "../execution-backend.js";
import { jobFinished } from "./job-status.js";

/** A one-shot event: `fire` settles `happened`; firing again does nothing. */
export interface Signal {
  readonly happened: Promise<void>;
  fire(): void;
}

function signal(): Signal {
  let fire: () => void = () => undefined;
  const happened = new Promise<void>((resolve) => (fire = resolve));
  return { happened, fire: () => fire() };
}

/** What one run's Job follower has seen of its Job and pod, and why it ends. */
export interface JobRunState {
  job: V1Job | undefined;
  /** The Job was deleted before it finished. */
  jobDeleted: boolean;
  pod: V1Pod | undefined;
  /** The pod was deleted before its engine container ended. */
  podLost: boolean;
  /** Why the engine's container can never be created, once known. */
  fatal: string | undefined;
  stopReason: StopReason | undefined;
  ended: boolean;
  detached: boolean;
  /** The last waiting reason logged, so that each is logged once. */
  lastNote: string | undefined;
  /** The run is over: the Job finished, is gone, was stopped or detached. */
  readonly end: Signal;
  /** The Job is gone from the cluster. */
  readonly gone: Signal;
  /** The pods watch told the pod's deletion. */
  readonly podDeleted: Signal;
}

/** A fresh state: nothing seen yet. */
export function createJobRunState(): JobRunState {
  return {
    job: undefined,
    jobDeleted: false,
    pod: undefined,
    podLost: false,
    fatal: undefined,
    stopReason: undefined,
    ended: false,
    detached: false,
    lastNote: undefined,
    end: signal(),
    gone: signal(),
    podDeleted: signal(),
  };
}

/** The Job is gone; `last` is its last state seen (a Job deleted before it finished was deleted under the run). */
export function markJobGone(state: JobRunState, last: V1Job | undefined): void {
  if (!jobFinished(last)) state.jobDeleted = true;
  state.gone.fire();
  state.end.fire();
}
