import type { Ticket } from "@errand/channel-sdk";
import { afterEach, expect } from "vitest";
import { ControllerError } from "../../../src/errors.js";
import type { RunState, TaskRun } from "../../../src/runs/task-run.js";
import type { Store } from "../../../src/store/store.js";

/** One store under test, as the implementation's test file opens it. */
export interface StoreFixture {
  store: Store;
  /**
   * Opens one more Store on the same database (a second connection, as a
   * second process would have). Used both after `store.close()` (is it
   * durable?) and beside a live `store` (is it exclusive?).
   */
  reopen(): Promise<Store>;
  /**
   * Makes every insert and update of `table` fail from now on (a trigger
   * installed on the database, as a full disk or a broken constraint
   * would), so a transaction can be failed after its first writes. Resolves
   * with a function that removes the trigger again.
   */
  failWrites(table: "deliveries" | "transitions" | "task_runs"): Promise<() => Promise<void>>;
  /** Closes every store it opened and removes the database. */
  cleanup(): Promise<void>;
}

/** Opens a fresh, empty database. */
export type OpenStore = () => Promise<StoreFixture>;

/** Wraps `open` so every fixture is cleaned up after its test. */
export function useFixtures(open: OpenStore): OpenStore {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return async () => {
    const fixture = await open();
    cleanups.push(fixture.cleanup);
    return fixture;
  };
}

/** A ticket as an intake makes it. */
export function ticket(id: string, source = "generic", extra: Partial<Ticket> = {}): Ticket {
  return {
    id,
    title: `Ticket ${id}`,
    description: 'Fix the *thing*.\nSecond line with "quotes" and ünïcode.',
    ticketType: "bug_fix",
    repoUrl: "https://codehost.example/acme/app",
    externalUrl: `https://tracker.example/${source}/${id}`,
    labels: ["errand", "p1"],
    source,
    rawEvent: { action: "opened", nested: { id, list: [1, 2, { deep: true }], none: null } },
    ...extra,
  };
}

/** Resolves after `ms`: lets a lease or TTL of a few milliseconds run out. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The path from Queued to each state, through allowed transitions only. */
const PATHS: Record<RunState, RunState[]> = {
  Queued: [],
  Running: ["Running"],
  Succeeded: ["Running", "Succeeded"],
  Failed: ["Running", "Failed"],
  TimedOut: ["Running", "TimedOut"],
  Cancelled: ["Cancelled"],
  Refused: ["Refused"],
  // Created there by intake (see runIn), not reached from Queued.
  AwaitingApproval: [],
};

let counter = 0;

/** Accepts a fresh ticket and moves its first run to `state`. */
export async function runIn(store: Store, state: RunState, id = `t${++counter}`): Promise<TaskRun> {
  const hold = state === "AwaitingApproval" ? { needsApproval: () => true } : {};
  const [outcome] = await store.acceptTickets([ticket(id)], "default", hold);
  if (outcome?.kind !== "queued") throw new Error(`ticket ${id} was not new`);
  let from: RunState = "Queued";
  for (const to of PATHS[state]) {
    const moved = await store.transition({ runId: outcome.runId, from: [from], to, reason: `to ${to}` });
    if (!moved) throw new Error(`run ${outcome.runId} did not move ${from} → ${to}`);
    from = to;
  }
  const run = await store.getRun(outcome.runId);
  if (!run) throw new Error(`run ${outcome.runId} vanished`);
  return run;
}

/** Asserts that `promise` rejects with a controller error of `code` that carries a hint. */
export async function expectCode(promise: Promise<unknown>, code: string): Promise<ControllerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ControllerError);
  const controllerError = error as ControllerError;
  expect(controllerError.code).toBe(code);
  expect(controllerError.hint).toEqual(expect.any(String));
  return controllerError;
}
