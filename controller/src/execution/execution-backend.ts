import type { TaskResult, Ticket } from "@errand/channel-sdk";
import type { Engine, EngineEvent } from "../engines/engine.js";
import type { CheckoutOutcome } from "../repositories/checkout-outcome.js";
import type { TaskRun } from "../runs/task-run.js";
import type { RunWorkspace } from "./run-workspace.js";

/** Why the controller stops a run before it ends on its own. */
export type StopReason = "cancel" | "timeout" | "cost" | "shutdown";

/** Everything a backend needs to start one run. */
export interface RunSpec {
  run: TaskRun;
  ticket: Ticket;
  engine: Engine;
  prompt: string;
  /** The engine's API key, resolved from the secret store; never logged. */
  apiKey: string | undefined;
  /** Prepares and finishes the workspace (a checkout); unset: an empty folder, as before. */
  workspace?: RunWorkspace | undefined;
}

/** Callbacks of a started run. They must not throw; the backend ignores what they return. */
export interface RunHooks {
  onEvent(event: EngineEvent): void;
}

/** How a run ended. */
export interface RunOutcome {
  result: TaskResult;
  /** Set when the controller stopped it (then `result.success` is false). */
  stoppedFor: StopReason | undefined;
  /**
   * Set when the run was detached (see {@link RunHandle.detach}): it goes on
   * without this controller, `result` means nothing, and the run stays
   * Running in the store for the next controller to re-attach.
   */
  detached?: true;
  /**
   * Set when the backend prepared a checkout for the run: whether the branch
   * got new commits and was pushed. The controller opens the pull request.
   */
  checkout?: CheckoutOutcome;
}

/** A started run. */
export interface RunHandle {
  /** What the backend needs to find the run after a restart; stored with the run. */
  readonly attachment: Record<string, unknown>;
  /** Where the log is (a file path, a pod name). */
  readonly logRef: string;
  /** The branch the run works on, when its workspace is a checkout. */
  readonly branch?: string | undefined;
  /** Settles once the run ended and its result was read. Never rejects. */
  readonly done: Promise<RunOutcome>;
  /**
   * Stops the run: SIGTERM to the whole process group (or Job deletion),
   * SIGKILL after the grace period. Resolves once it is gone; `done` then
   * settles with `stoppedFor: reason`. Safe to call twice.
   */
  stop(reason: StopReason): Promise<void>;
  /**
   * Backends whose runs outlive the controller (Kubernetes Jobs) only: stop
   * following the run and leave it running; `done` then settles at once
   * with `detached: true`. A no-op once the run ended or a stop began.
   */
  detach?(): void;
}

/** What to do with a run left Running by a controller that died. */
export type RecoveryPlan =
  | { action: "reattach"; handle: RunHandle }
  | { action: "requeue"; reason: string }
  | { action: "fail"; reason: string };

/**
 * Where agent runs execute: `local` (child processes, the default) or
 * `kubernetes` (one Job per run). The loop decides when; the backend decides
 * how and reports back.
 */
export interface ExecutionBackend {
  readonly name: string;
  /** True when runs still going at shutdown are detached, not stopped (their handles have `detach`). */
  readonly detachesOnShutdown?: boolean;
  /**
   * Starts the run and resolves once it exists (the process spawned, the
   * Job created): the moment the run becomes Running. Rejects with an
   * EngineStart ControllerError when it could not be started (missing
   * binary, say), naming what ran and the fix.
   */
  start(spec: RunSpec, hooks: RunHooks): Promise<RunHandle>;
  /** Decides the fate of a run found Running at start-up (see docs/operators-guide.md, "Restarts"). */
  recover(run: TaskRun, hooks: RunHooks, spec: RunSpec): Promise<RecoveryPlan>;
  /**
   * The absolute path of the run's workspace as the engine sees it (its
   * working directory), so that engine output can name files relative to
   * it; undefined when the backend cannot tell.
   */
  workspaceOf?(run: TaskRun): string | undefined;
  /** The last `maxBytes` of a run's log, or undefined when there is none (any more). */
  readLog(run: TaskRun, maxBytes: number): Promise<string | undefined>;
  /** Starts ahead of the first run what runs need (the local backend's engine spawner). Optional; never throws. */
  warm?(): void;
  /** Releases what the backend holds (watches, clients). Running runs are stopped by the loop first. */
  close(): Promise<void>;
}
