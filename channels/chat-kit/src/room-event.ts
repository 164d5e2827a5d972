import type { TaskResult, Ticket } from "@errand/channel-sdk";

/** One notification for a chat room, as it waits in a {@link DigestQueue}. */
export type RoomEvent =
  | { kind: "start"; runId: string; ticket: Ticket; engine: string }
  | { kind: "complete"; runId: string; ticket: Ticket; result: TaskResult }
  | { kind: "progress"; runId: string; ticket: Ticket; message: string };

/**
 * The events a digest shows, with the index in `events` of each: progress
 * coalesced to the latest of its run, and left out once its run's completion
 * is among `events` (it is stale then, as the controller's own progress
 * limiter treats it). Progress without a run id is never merged.
 */
export function coalesceProgress(events: readonly RoomEvent[]): { event: RoomEvent; index: number }[] {
  const superseded = new Set<number>();
  const laterOfRun = new Set<string>();
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as RoomEvent;
    if (event.runId === "" || event.kind === "start") continue;
    if (event.kind === "progress" && laterOfRun.has(event.runId)) superseded.add(i);
    laterOfRun.add(event.runId);
  }
  return events.flatMap((event, index) => (superseded.has(index) ? [] : [{ event, index }]));
}

/** A short account of events for a log line: counts by kind and the run ids (at most 50). */
export function describeEvents(events: readonly RoomEvent[]): {
  starts: number;
  completes: number;
  progress: number;
  runIds: string[];
} {
  const count = (kind: RoomEvent["kind"]) => events.filter((e) => e.kind === kind).length;
  const runIds = events.map((e) => `${e.kind} ${e.runId || "(no run id)"}`);
  return {
    starts: count("start"),
    completes: count("complete"),
    progress: count("progress"),
    runIds: runIds.length > 50 ? [...runIds.slice(0, 50), `… and ${runIds.length - 50} more`] : runIds,
  };
}
