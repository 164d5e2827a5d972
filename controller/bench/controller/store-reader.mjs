// Reads the controller's SQLite file from the bench (a second connection;
// WAL lets it read while the controller writes).
import Database from "better-sqlite3";
import { progress } from "./stats.mjs";

export function openStoreReader(path) {
  const db = new Database(path, { fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  const finishedCount = db.prepare("SELECT COUNT(*) AS n FROM task_runs WHERE finished_at IS NOT NULL");
  const states = db.prepare("SELECT state, COUNT(*) AS n FROM task_runs GROUP BY state");
  const window = db.prepare("SELECT MIN(started_at) AS firstStart, MAX(finished_at) AS lastFinish FROM task_runs");
  const running = db.prepare(
    `SELECT r.ticket_id AS id, t.at AS at FROM transitions t JOIN task_runs r ON r.id = t.run_id
     WHERE t.to_state = 'Running' AND r.ticket_id LIKE ? || '-%'`,
  );
  return {
    finished: () => finishedCount.get().n,
    states: () => Object.fromEntries(states.all().map((r) => [r.state, r.n])),
    window: () => window.get(),
    /** Ticket id → time of its run's Running transition, for tickets whose id starts with `prefix-`. */
    runningAt: (prefix) => new Map(running.all(prefix).map((r) => [r.id, r.at])),
    close: () => db.close(),
  };
}

/** Polls until `total` runs have finished, printing progress; rejects after `timeoutMs` without progress. */
export async function waitFinished(reader, total, label, timeoutMs = 60_000) {
  const start = performance.now();
  let last = -1;
  let lastChange = performance.now();
  for (;;) {
    // A PostgreSQL reader answers with promises.
    const n = await reader.finished();
    if (n !== last) {
      last = n;
      lastChange = performance.now();
    }
    const seconds = (performance.now() - start) / 1000;
    progress(`${label}: ${n}/${total} runs finished after ${seconds.toFixed(0)} s`);
    if (n >= total) return;
    if (performance.now() - lastChange > timeoutMs)
      throw new Error(`${label}: no run finished for ${timeoutMs / 1000} s (${n}/${total})`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}
