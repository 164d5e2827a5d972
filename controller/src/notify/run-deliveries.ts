import type { Ticket } from "@errand/channel-sdk";
import type { RunEvent } from "../runs/run-event.js";
import type { Delivery } from "./deliver.js";

type EventOf<T extends RunEvent["type"]> = Extract<RunEvent, { type: T }>;

/** The delivery telling every channel a run started, with the engine that runs it. */
export function startDelivery({ run, ticket, engine }: EventOf<"started">): Delivery {
  return {
    operation: "notify_start",
    runId: run.id,
    ticketId: ticket.id,
    invoke: (channel, o) => channel.notifyStart(ticket, { ...o, engine }),
  };
}

/** The delivery of one progress message of a run. */
export function progressDelivery(runId: string, ticket: Ticket, message: string): Delivery {
  return {
    operation: "notify",
    runId,
    ticketId: ticket.id,
    invoke: (channel, o) => channel.notify(message, ticket, o),
  };
}

/** The delivery telling every channel a run finished, with its result. */
export function completeDelivery({ run, ticket, result }: EventOf<"finished">): Delivery {
  return {
    operation: "notify_complete",
    runId: run.id,
    ticketId: ticket.id,
    invoke: (channel, o) => channel.notifyComplete(ticket, result, o),
  };
}
