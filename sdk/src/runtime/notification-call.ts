import type { TaskResult, Ticket } from "../channel.js";

/**
 * The three notification operations with every field of their request, as
 * the runtime dispatches them to a channel's handlers.
 */
export type NotificationCall =
  | { kind: "notify"; message: string; ticket: Ticket; taskRunId: string }
  | { kind: "notifyStart"; ticket: Ticket; taskRunId: string; engine: string }
  | { kind: "notifyComplete"; ticket: Ticket; result: TaskResult; taskRunId: string };

/**
 * A {@link NotificationCall} as a host may send it with `sendNotification`:
 * `kind`, `ticket` and (for notifyComplete) `result` are given; any other
 * field may be left out and is sent unset, which the plugin reads as
 * proto3's default (`""` for text). Derived from NotificationCall, so a
 * field added there is accepted here too.
 */
export type PartialNotificationCall = NotificationCall extends infer Call
  ? Call extends NotificationCall
    ? Partial<Call> & Pick<Call, Extract<keyof Call, "kind" | "ticket" | "result">>
    : never
  : never;
