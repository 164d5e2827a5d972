import type { Logger } from "@errand/channel-sdk";
import type { OutputParser } from "../../engines/engine.js";
import type { RunHooks } from "../execution-backend.js";
import { ENGINE_CONTAINER } from "./container-paths.js";
import { followPodLog, type PodLogFollower } from "./pod-log-follower.js";
import type { RunContext } from "./run-context.js";

/** The run's part of {@link createJobRunLog}'s input. */
export interface JobRunLogInput {
  parser: OutputParser;
  hooks: RunHooks;
  /** Progress logged before this time was told already (a re-attached run). */
  quietBefore: number | undefined;
}

/** The engine container's log, read through the engine's parser into the run's hooks. */
export interface JobRunLog {
  /** True once the log of a pod is followed. */
  readonly following: boolean;
  /** Starts following the log of the pod named `podName`. */
  follow(podName: string): void;
  /** Reads what is left of the log (see PodLogFollower.finish); nothing when no log is followed. */
  finish(boundMs: number): Promise<void>;
  /** Stops following at once. */
  stop(): void;
}

/** Creates the log reader. A parser or hook that throws is logged once and never ends the run. */
export function createJobRunLog(context: RunContext, input: JobRunLogInput, logger: Logger): JobRunLog {
  let follower: PodLogFollower | undefined;
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
  return {
    get following() {
      return follower !== undefined;
    },
    follow(podName) {
      follower = followPodLog({
        kubeConfig: context.clients.kubeConfig,
        namespace: context.namespace,
        pod: podName,
        container: ENGINE_CONTAINER,
        onLine,
        logger,
        retryMs: context.retryMs,
      });
    },
    finish: async (boundMs) => follower?.finish(boundMs),
    stop: () => follower?.stop(),
  };
}
