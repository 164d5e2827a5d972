import type { Pool } from "pg";
import type { RunRow } from "../rows.js";
import { runNotFound } from "../run-rules.js";
import { type BatchedMove, batchable, moveMany } from "./transition-batch.js";

/** One transition waiting for its statement. */
interface Waiting {
  move: BatchedMove;
  /** The same transition as a statement of its own. */
  alone: () => Promise<RunRow | undefined>;
  resolve: (row: RunRow | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Gathers the transitions a controller makes at the same time into one
 * statement. The first goes at once, alone; those that come while a statement
 * is in flight wait for it and then go together, one statement for all of
 * them (a run at most once per statement: a second move of the same run waits
 * for the next). A busy controller so pays one round trip and one statement's
 * overhead for many runs (measured: a run's two transitions cost the server
 * a third of the CPU in statements of 16), an idle one nothing. When a
 * statement of several fails, each of its moves is made again alone, so an
 * error reaches only the transition it belongs to. Returns what a single move
 * returns: the moved row, undefined when the run was in none of the states
 * given, a StoreError (ERR_STORE_NOT_FOUND) for an unknown run.
 */
export function createTransitionQueue(
  pool: Pool,
): (move: BatchedMove, alone: () => Promise<RunRow | undefined>) => Promise<RunRow | undefined> {
  const waiting: Waiting[] = [];
  let busy = false;

  const drain = async (): Promise<void> => {
    busy = true;
    try {
      while (waiting.length > 0) await send(takeDistinct(waiting));
    } finally {
      busy = false;
    }
  };

  const send = async (batch: Waiting[]): Promise<void> => {
    if (batch.length === 1) {
      const [only] = batch as [Waiting];
      await only.alone().then(only.resolve, only.reject);
      return;
    }
    let moved: Map<string, RunRow>;
    try {
      moved = await moveMany(
        pool,
        batch.map((w) => w.move),
      );
    } catch {
      await Promise.all(batch.map((w) => w.alone().then(w.resolve, w.reject)));
      return;
    }
    const missing = batch.filter((w) => !moved.has(w.move.b_id));
    const known = missing.length === 0 ? new Set<string>() : await storedRuns(pool, missing).catch(() => undefined);
    const again: Promise<void>[] = [];
    for (const w of batch) {
      const row = moved.get(w.move.b_id);
      if (row !== undefined) w.resolve(row);
      // The lookup failed: the move alone tells the two cases apart (and moves nothing twice: its state check fails).
      else if (known === undefined) again.push(w.alone().then(w.resolve, w.reject));
      else if (known.has(w.move.b_id)) w.resolve(undefined);
      else w.reject(runNotFound(w.move.b_id));
    }
    await Promise.all(again);
  };

  return (move, alone) => {
    if (!batchable(move)) return alone();
    return new Promise<RunRow | undefined>((resolve, reject) => {
      waiting.push({ move, alone, resolve, reject });
      if (!busy) void drain();
    });
  };
}

/** Takes from `waiting`, in order, the first move of each run; a later move of a run stays for the next statement. */
function takeDistinct(waiting: Waiting[]): Waiting[] {
  const taken: Waiting[] = [];
  const runs = new Set<string>();
  const left: Waiting[] = [];
  for (const w of waiting) {
    if (runs.has(w.move.b_id)) left.push(w);
    else {
      runs.add(w.move.b_id);
      taken.push(w);
    }
  }
  waiting.splice(0, waiting.length, ...left);
  return taken;
}

/** Which of the runs of `batch` are stored: a run the statement left alone is either in another state or unknown. */
async function storedRuns(pool: Pool, batch: readonly Waiting[]): Promise<Set<string>> {
  const ids = batch.map((w) => w.move.b_id);
  const { rows } = await pool.query<{ id: string }>("SELECT id FROM task_runs WHERE id = ANY ($1::text[])", [ids]);
  return new Set(rows.map((r) => r.id));
}
