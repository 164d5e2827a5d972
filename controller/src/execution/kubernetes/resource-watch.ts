import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@errand/channel-sdk";
import type { Watch } from "@kubernetes/client-node";
import { apiProblem } from "../../kube/kube-api.js";
import { createWatchCache, type Listed, type WatchCache } from "./watch-cache.js";

/** Options of {@link startResourceWatch}. */
export interface ResourceWatchOptions<T extends Listed> {
  /** What is watched, for logs: `jobs`, `pods`. */
  what: string;
  watch: Watch;
  /** Collection path, e.g. `/apis/batch/v1/namespaces/errand/jobs`. */
  path: string;
  labelSelector: string;
  list(): Promise<{ items: T[]; resourceVersion: string | undefined }>;
  /** An object was added or changed (or is in a fresh list). Must not throw. */
  onUpsert(object: T): void;
  /** An object was deleted (or is missing from a fresh list). Must not throw. */
  onDelete(object: T): void;
  logger: Logger;
  /** First pause after a failure; doubles up to 30 s. */
  retryMs: number;
  /** Asks the server to end each watch after this; it is then resumed. */
  timeoutSeconds: number;
}

/** A list-then-watch of one kind, kept in a cache. */
export interface ResourceWatch<T> {
  get(name: string): T | undefined;
  /** Resolves once the first list is in. */
  readonly synced: Promise<void>;
  close(): Promise<void>;
}

const MAX_RETRY_MS = 30_000;
const GONE = 410;
const CLOSE_BOUND_MS = 2000;

type WatchEnd = { kind: "gone" } | { kind: "failed"; error: unknown } | { kind: "ended"; events: number };

/**
 * Lists the objects, then watches from the list's resourceVersion with
 * bookmarks, as client-go's reflector does: a watch that ends (the server's
 * timeout, a dropped connection) is resumed from the last version seen; a
 * watch answered 410 Gone (that version is compacted away) lists again with
 * a fresh version, and the new list is diffed against the cache, so a
 * change missed while disconnected (a Job that finished, a pod deleted) is
 * still delivered. Failures are retried with a doubling pause.
 */
export function startResourceWatch<T extends Listed>(options: ResourceWatchOptions<T>): ResourceWatch<T> {
  const { logger, what } = options;
  const cache = createWatchCache(options);
  const stopper = new AbortController();
  const position: WatchPosition = { resourceVersion: undefined, current: undefined };
  let markSynced: () => void = () => undefined;
  const synced = new Promise<void>((resolve) => (markSynced = resolve));

  const relist = async (): Promise<void> => {
    const list = await options.list();
    cache.replace(list.items);
    position.resourceVersion = list.resourceVersion;
    markSynced();
  };

  const watchOnce = (): Promise<WatchEnd> => watchOnceFrom(options, cache, position, stopper.signal);

  const pause = (ms: number): Promise<void> => sleep(ms, undefined, { signal: stopper.signal }).catch(() => undefined);

  const loop = async (): Promise<void> => {
    let delay = options.retryMs;
    const backOff = async (): Promise<void> => {
      await pause(delay);
      delay = Math.min(delay * 2, MAX_RETRY_MS);
    };
    while (!stopper.signal.aborted) {
      if (position.resourceVersion === undefined) {
        try {
          await relist();
        } catch (error) {
          logger.warn(`listing ${what} failed; trying again`, { error: apiProblem(error).message, retry_ms: delay });
          await backOff();
          continue;
        }
      }
      const started = Date.now();
      const end = await watchOnce();
      if (stopper.signal.aborted) break;
      if (end.kind === "gone") {
        logger.info(`the ${what} watch expired (410 Gone); listing again`);
        position.resourceVersion = undefined;
        delay = options.retryMs;
      } else if (end.kind === "failed") {
        logger.warn(`the ${what} watch failed; resuming`, { error: apiProblem(end.error).message, retry_ms: delay });
        await backOff();
      } else if (end.events === 0 && Date.now() - started < options.retryMs) {
        // Ended at once with nothing: do not spin on a server that hangs up.
        await backOff();
      } else {
        delay = options.retryMs;
      }
    }
  };
  const running = loop();

  return {
    get: (name) => cache.get(name),
    synced,
    async close() {
      stopper.abort();
      position.current?.abort();
      // A watch whose answer has not begun cannot be aborted yet (the client
      // hands out its abort controller with the answer); it is dropped when it begins.
      const timer = new AbortController();
      await Promise.race([running, sleep(CLOSE_BOUND_MS, undefined, { signal: timer.signal }).catch(() => undefined)]);
      timer.abort();
    },
  };
}

/** Where the watch stands: the last version seen (undefined: list again) and the abort of the watch under way. */
interface WatchPosition {
  resourceVersion: string | undefined;
  current: AbortController | undefined;
}

/** One watch from the position's version, until the server ends it, it fails, or it is aborted. */
async function watchOnceFrom<T extends Listed>(
  options: ResourceWatchOptions<T>,
  cache: WatchCache<T>,
  position: WatchPosition,
  stopped: AbortSignal,
): Promise<WatchEnd> {
  let gone = false;
  let failure: unknown;
  let events = 0;
  let finish: (error: unknown) => void = () => undefined;
  const ended = new Promise<unknown>((resolve) => (finish = resolve));
  const onEvent = (type: string, object: unknown): void => {
    const item = object as T & { code?: number; message?: string };
    if (type === "ERROR") {
      if (item.code === GONE) gone = true;
      else failure = new Error(`watch error ${item.code ?? ""}: ${item.message ?? "no message"}`);
      position.current?.abort();
      return;
    }
    position.resourceVersion = item.metadata?.resourceVersion ?? position.resourceVersion;
    if (type === "BOOKMARK") return;
    const name = item.metadata?.name;
    if (name === undefined) return;
    events += 1;
    if (type === "DELETED") cache.remove(name, item);
    else cache.upsert(name, item);
  };
  const query = {
    labelSelector: options.labelSelector,
    resourceVersion: position.resourceVersion,
    allowWatchBookmarks: true,
    timeoutSeconds: options.timeoutSeconds,
  };
  try {
    position.current = await options.watch.watch(options.path, query, onEvent, (error: unknown) =>
      finish(error ?? undefined),
    );
    if (stopped.aborted) position.current.abort();
  } catch (error) {
    finish(error);
  }
  const error = await ended;
  position.current = undefined;
  if (gone || apiProblem(error).status === GONE) return { kind: "gone" };
  if (failure !== undefined || (error !== undefined && error !== null))
    return { kind: "failed", error: failure ?? error };
  return { kind: "ended", events };
}
