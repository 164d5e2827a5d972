import { createRequire } from "node:module";
import type { Worker } from "node:worker_threads";
import type { Logger } from "@errand/channel-sdk";

/** Stops a checkpointer; resolves once its thread has closed its connection. */
export interface Checkpointer {
  stop(): Promise<void>;
}

// CommonJS, evaluated in the worker: the worker has no TypeScript loader, and
// an inline script needs no file beside the compiled one.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.module);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma("busy_timeout = 1000");
const tick = () => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message) });
  }
};
// Started when a checkpoint is due (startCheckpointer): the first one now.
tick();
setInterval(tick, workerData.intervalMs);
`;

/**
 * Copies the WAL back into the database file every `intervalMs` from a
 * worker thread with its own connection. SQLite's automatic checkpoint
 * would run on the committing connection, i.e. the controller's event
 * loop, and its fsyncs take milliseconds: a stall for every request in
 * flight once per thousand pages. A PASSIVE checkpoint waits for no
 * reader or writer, so the main connection never waits for it either.
 *
 * The thread starts when the first checkpoint is due, not with the store:
 * booting it took CPU from `errand run`'s start on a 2-core machine, and
 * nothing needs a checkpoint before then.
 */
export function startCheckpointer(path: string, intervalMs: number, logger: Logger | undefined): Checkpointer {
  let worker: Worker | undefined;
  let stopped = false;
  let warned = false;
  const complain = (message: string) => {
    if (warned) return;
    warned = true;
    logger?.warn("store checkpoints in the background failed; SQLite's own checkpoints go on", {
      path,
      error: message,
    });
  };
  const due = setTimeout(async () => {
    try {
      const { Worker } = await import("node:worker_threads");
      if (stopped) return;
      const module = createRequire(import.meta.url).resolve("better-sqlite3");
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, path, intervalMs } });
      worker.on("message", (m: { error?: string }) => complain(m.error ?? "unknown"));
      worker.on("error", (error) => complain(error.message));
      // After the listeners: adding a "message" listener refs the worker again.
      worker.unref();
    } catch (error) {
      // A thread that cannot start (resource limits) leaves the checkpoints to SQLite, as a failing one does.
      complain((error as Error).message);
    }
  }, intervalMs);
  due.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(due);
      // Native calls are not interrupted: a checkpoint under way completes,
      // and better-sqlite3 closes the thread's connection as the thread ends.
      await worker?.terminate();
    },
  };
}
