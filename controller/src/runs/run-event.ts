import type { TaskResult, Ticket } from "@errand/channel-sdk";
import type { TaskRun } from "./task-run.js";

/** What the loop tells observers (the notifier, ticket write-back, ...) about a run. */
export type RunEvent =
  /** The run is Running (the process or Job exists). */
  | { type: "started"; run: TaskRun; ticket: Ticket; engine: string }
  /** Something worth telling a person while it runs. */
  | { type: "progress"; run: TaskRun; ticket: Ticket; message: string }
  /** The run ended (Succeeded, Failed, TimedOut, Cancelled) or was Refused by a guardrail. */
  | { type: "finished"; run: TaskRun; ticket: Ticket; result: TaskResult };

/**
 * Receives run events. `observe` must settle on its own within the time it
 * is given (the loop bounds it anyway) and must not throw; an observer
 * logs and counts its own failures.
 */
export interface RunObserver {
  readonly name: string;
  /**
   * True: the observer keeps each run's events in order itself, and the loop
   * hands it every event as soon as it happens, while earlier ones may still
   * be in hand (the notifier does: each channel has its own queue, so a slow
   * channel holds up no other). Otherwise the loop hands it a run's next
   * event only once its previous one settled.
   */
  readonly ordersEvents?: boolean;
  observe(event: RunEvent, signal: AbortSignal): Promise<void>;
  /** Stops in-flight work (cancels calls) and releases resources. */
  close(): Promise<void>;
}
