import type { TaskResult, Ticket } from "../channel.js";

/** The three notification operations, as the runtime dispatches them. */
export type NotificationCall =
  | { kind: "notify"; message: string; ticket: Ticket; taskRunId: string }
  | { kind: "notifyStart"; ticket: Ticket; taskRunId: string; engine: string }
  | { kind: "notifyComplete"; ticket: Ticket; result: TaskResult; taskRunId: string };
