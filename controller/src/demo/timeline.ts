import { isTerminal, type TaskRun, type TicketKey, type Transition } from "../runs/task-run.js";
import { createSqliteStore } from "../store/sqlite/sqlite-store.js";
import type { DemoMessage } from "./demo-targets.js";

/** Longer than a notification call may take (5 s): a start message later than this is not coming. */
const START_WAIT_MS = 6_000;
const POLL_MS = 50;

/** Options of {@link createTimeline}. */
export interface TimelineOptions {
  /** The controller's SQLite store. */
  dbPath: string;
  ticket: TicketKey;
  /** The channels the demo configures. */
  channels: readonly DemoMessage["target"][];
  printTransition(t: Transition): void;
  printMessage(m: DemoMessage): void;
}

/** A run's state changes and its channels' messages, printed in the order one caused the other. */
export interface Timeline {
  /** A message a channel posted: printed, once {@link Timeline.follow} began, after every state change stored before it arrived. */
  message(m: DemoMessage): void;
  /** Reads the store until the run's final state is printed; resolves with the run. */
  follow(): Promise<TaskRun>;
  /** Prints whatever is still held, then lets go of the store. */
  close(): Promise<void>;
}

/**
 * The store is polled, and a channel's message usually arrives before the
 * poll sees the state change that caused it, so each message first catches
 * up with the store. The final state of a run that succeeded also waits for
 * every channel's first message (its start, unless that failed), so that the
 * timeline reads start, progress, end, completion even on a slow machine;
 * a channel's later messages wait behind it.
 */
export async function createTimeline(options: TimelineOptions): Promise<Timeline> {
  const store = await createSqliteStore({ path: options.dbPath });
  const heard = new Set<string>();
  const behindFinal: DemoMessage[] = [];
  let printed = 0;
  let final: { run: TaskRun; transition: Transition; since: number } | undefined;
  let finalPrinted = false;
  let begin: () => void = () => {};
  // Nothing is printed before follow() begins: the caller prints its own lines first.
  let queue = new Promise<void>((resolve) => {
    begin = resolve;
  });
  let closing: Promise<void> | undefined;

  // One step at a time, in arrival order; a failed step fails its caller, not the steps after it.
  const serial = (step: () => Promise<void> | void): Promise<void> => {
    const next = queue.then(step);
    queue = next.catch(() => {});
    return next;
  };
  const printFinal = (force = false) => {
    if (final === undefined || finalPrinted) return;
    const startsDue = final.transition.to === "Succeeded" && options.channels.some((c) => !heard.has(c));
    if (startsDue && !force && Date.now() - final.since < START_WAIT_MS) return;
    finalPrinted = true;
    options.printTransition(final.transition);
    for (const m of behindFinal.splice(0)) options.printMessage(m);
  };
  const catchUp = async () => {
    if (final === undefined) {
      const [run] = await store.listRuns({ ticket: options.ticket, limit: 1 });
      const steps = run === undefined ? [] : await store.transitions(run.id);
      for (const t of steps.slice(printed)) {
        if (isTerminal(t.to) && run !== undefined) {
          final = { run, transition: t, since: Date.now() };
          break;
        }
        options.printTransition(t);
        printed += 1;
      }
    }
    printFinal();
  };

  return {
    message(m) {
      void serial(async () => {
        await catchUp();
        if (final !== undefined && !finalPrinted && heard.has(m.target)) behindFinal.push(m);
        else options.printMessage(m);
        heard.add(m.target);
        printFinal();
      });
    },
    async follow() {
      begin();
      for (;;) {
        await serial(catchUp);
        if (finalPrinted && final !== undefined) return final.run;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
    close() {
      begin();
      closing ??= serial(() => {
        printFinal(true);
        for (const m of behindFinal.splice(0)) options.printMessage(m);
      }).finally(() => store.close());
      return closing;
    },
  };
}
