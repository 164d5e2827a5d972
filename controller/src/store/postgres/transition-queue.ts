import pg from "pg";
import type { RunRow } from "../rows.js";
import { moveAlone, moveUnlessLocked } from "./move-run.js";
import { type BatchedMove, batchable, moveMany } from "./transition-batch.js";

/** Most moves in one statement. */
const MOST_PER_STATEMENT = 64;

/** One transition waiting for its statement. */
interface Waiting {
  move: BatchedMove;
  resolve: (row: RunRow | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Gathers the transitions a controller makes at the same time into one
 * statement. The first goes at once; those that come while that statement is
 * in flight wait for it and then go together, one statement for up to 64
 * runs. A busy controller so pays one round trip and one statement for many
 * runs, an idle one nothing.
 *
 * These statements never wait for a row lock: a run another transaction
 * holds is passed over, as is one in none of the `from` states and an unknown
 * one, and each such move is then made alone, with the single move's lock wait
 * and outcomes (the moved row, undefined, ERR_NOT_FOUND), beside the next
 * statements instead of in front of them. A statement the server refused
 * (rolled back) is made again move by move, so an error reaches only the move
 * it belongs to; one whose answer was lost (a broken connection) may have
 * committed, and fails each of its moves with that error, as a single move
 * would. A run's moves keep their order: a second move of a run waits until
 * its first has ended.
 */
export function createTransitionQueue(pool: pg.Pool): (move: BatchedMove) => Promise<RunRow | undefined> {
  const waiting: Waiting[] = [];
  /** Runs with a move in a statement or made alone right now. */
  const busy = new Set<string>();
  let sending = false;

  const alone = (w: Waiting): void => {
    busy.add(w.move.b_id);
    void moveAlone(pool, w.move)
      .then(w.resolve, w.reject)
      .finally(() => {
        busy.delete(w.move.b_id);
        pump();
      });
  };

  const send = async (batch: Waiting[]): Promise<void> => {
    const moves = batch.map((w) => w.move);
    let moved: Map<string, RunRow>;
    try {
      moved = moves.length === 1 ? await moveOne(pool, moves[0]!) : await moveMany(pool, moves);
    } catch (error) {
      for (const w of batch) {
        busy.delete(w.move.b_id);
        if (error instanceof pg.DatabaseError) alone(w);
        else w.reject(error);
      }
      return;
    }
    for (const w of batch) {
      busy.delete(w.move.b_id);
      const row = moved.get(w.move.b_id);
      if (row !== undefined) w.resolve(row);
      else alone(w);
    }
  };

  const pump = (): void => {
    const { together, apart } = takeReady(waiting, busy, sending ? 0 : MOST_PER_STATEMENT);
    for (const w of apart) alone(w);
    if (together.length === 0) return;
    sending = true;
    for (const w of together) busy.add(w.move.b_id);
    void send(together).finally(() => {
      sending = false;
      pump();
    });
  };

  return (move) =>
    new Promise<RunRow | undefined>((resolve, reject) => {
      waiting.push({ move, resolve, reject });
      pump();
    });
}

/** {@link moveUnlessLocked} of one move, its row by id as {@link moveMany} returns them. */
async function moveOne(pool: pg.Pool, move: BatchedMove): Promise<Map<string, RunRow>> {
  const row = await moveUnlessLocked(pool, move);
  return new Map(row ? [[row.id, row]] : []);
}

/**
 * Takes from `waiting`, in order, the moves that may go now: the first waiting
 * move of each run that is not `busy`; of those, up to `most` that JSON
 * carries go `together`, the others `apart` (alone). A later move of a run
 * stays until the earlier one has ended.
 */
function takeReady(
  waiting: Waiting[],
  busy: ReadonlySet<string>,
  most: number,
): { together: Waiting[]; apart: Waiting[] } {
  const together: Waiting[] = [];
  const apart: Waiting[] = [];
  const seen = new Set(busy);
  const left: Waiting[] = [];
  for (const w of waiting) {
    const run = w.move.b_id;
    if (seen.has(run)) left.push(w);
    else if (!batchable(w.move)) apart.push(w);
    else if (together.length < most) together.push(w);
    else left.push(w);
    seen.add(run);
  }
  waiting.splice(0, waiting.length, ...left);
  return { together, apart };
}
