import type { Logger } from "@errand/channel-sdk";
import type { ExecutionConfig } from "../config/controller-config.js";
import { ControllerError, ControllerErrorCode } from "../errors.js";
import type { ExecutionBackend, RunHandle } from "./execution-backend.js";
import { parseAttachment } from "./local/attachment.js";
import { createSpawner } from "./local/helper-spawner.js";
import { startLocalRun } from "./local/local-run.js";
import { readLogTail } from "./local/read-log-tail.js";
import { recoverLocalRun } from "./local/recover-run.js";
import { isSafeRunId, runPaths } from "./local/run-files.js";
import { createSpareFolders } from "./local/spare-folders.js";
import type { Spawner } from "./local/spawner.js";

/** Options of {@link createLocalBackend}. */
export interface LocalBackendOptions {
  config: ExecutionConfig["local"];
  logger: Logger;
  /** Clock for durations, ms; default Date.now. */
  now?: () => number;
  /** Where engines are spawned from; default a spawner of its own, stopped by close(). */
  spawner?: Spawner;
}

/**
 * The `local` execution backend: each run is a process in a process group
 * of its own, spawned by a small helper process of the controller's (see
 * local/spawner-program.ts), in a fresh workspace folder,
 * with a capped log file. See docs/operators-guide.md for the files a run
 * gets, its environment and what a restart does to runs in flight.
 */
export function createLocalBackend(options: LocalBackendOptions): ExecutionBackend {
  const { config } = options;
  const logger = options.logger.child({ backend: "local" });
  const spawner = options.spawner ?? createSpawner(logger.child({ component: "spawner" }));
  const cleanups = new Set<Promise<void>>();
  const track = (cleanup: Promise<void>): void => {
    cleanups.add(cleanup);
    void cleanup.then(() => cleanups.delete(cleanup));
  };
  const spares = createSpareFolders(config.workspaceDir);
  const context = { config, logger, now: options.now ?? Date.now, spawner, track, spares };
  const active = new Set<RunHandle>();
  const starting = new Set<Promise<RunHandle>>();
  let closed = false;

  return {
    name: "local",
    async start(spec, hooks) {
      if (closed)
        throw new ControllerError(
          ControllerErrorCode.Internal,
          `run ${spec.run.id} was started after the local backend was closed`,
        );
      const pending = startLocalRun(context, spec, hooks);
      starting.add(pending);
      let handle: RunHandle;
      try {
        handle = await pending;
      } finally {
        starting.delete(pending);
      }
      active.add(handle);
      void handle.done.then(() => active.delete(handle));
      return handle;
    },
    warm() {
      if (!closed) spawner.start();
    },
    recover(run, _hooks, spec) {
      return recoverLocalRun(config, logger, run, spec);
    },
    workspaceOf(run) {
      return (
        parseAttachment(run.attachment)?.workspace
        ?? (isSafeRunId(run.id) ? runPaths(config, run.id).workspace : undefined)
      );
    },
    async readLog(run, maxBytes) {
      const path =
        parseAttachment(run.attachment)?.logFile
        ?? run.logRef
        ?? (isSafeRunId(run.id) ? runPaths(config, run.id).log : undefined);
      return path === undefined ? undefined : readLogTail(path, maxBytes);
    },
    async close() {
      closed = true;
      // The loop stops runs first; whatever is still here (or still
      // starting) is stopped so that no engine outlives its backend.
      await Promise.allSettled([...starting]);
      const left = [...active];
      if (left.length > 0) logger.warn("closing with runs still running; stopping them", { runs: left.length });
      await Promise.all(
        left.map(async (handle) => {
          await handle.stop("shutdown");
          await handle.done;
        }),
      );
      // Finished runs' folders are removed after their outcome; their logs close when that is done.
      await Promise.all([...cleanups]);
      if (options.spawner === undefined) spawner.close();
    },
  };
}
