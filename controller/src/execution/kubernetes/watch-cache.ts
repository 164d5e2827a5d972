import type { Logger } from "@errand/channel-sdk";

/** An object as lists and watches return it. */
export interface Listed {
  metadata?: { name?: string; resourceVersion?: string };
}

/** What {@link createWatchCache} tells of each change. */
export interface WatchCacheListener<T> {
  /** What is watched, for logs: `jobs`, `pods`. */
  what: string;
  onUpsert(object: T): void;
  onDelete(object: T): void;
  logger: Logger;
}

/** The objects a watch has seen, by name; every change is told to the listener, whose failures are logged. */
export interface WatchCache<T> {
  get(name: string): T | undefined;
  upsert(name: string, object: T): void;
  remove(name: string, object: T): void;
  /** Takes a fresh list: each item is upserted, and what the list lacks is deleted (a change missed while away). */
  replace(items: readonly T[]): void;
}

/** Creates an empty cache. */
export function createWatchCache<T extends Listed>(listener: WatchCacheListener<T>): WatchCache<T> {
  const cache = new Map<string, T>();
  const deliver = (kind: "upsert" | "delete", object: T): void => {
    try {
      if (kind === "upsert") listener.onUpsert(object);
      else listener.onDelete(object);
    } catch (error) {
      listener.logger.error(`a ${listener.what} watch listener threw`, { error });
    }
  };
  const upsert = (name: string, object: T): void => {
    cache.set(name, object);
    deliver("upsert", object);
  };
  const remove = (name: string, object: T): void => {
    cache.delete(name);
    deliver("delete", object);
  };
  return {
    get: (name) => cache.get(name),
    upsert,
    remove,
    replace(items) {
      const seen = new Set<string>();
      for (const item of items) {
        const name = item.metadata?.name;
        if (name === undefined) continue;
        seen.add(name);
        upsert(name, item);
      }
      for (const [name, old] of [...cache]) if (!seen.has(name)) remove(name, old);
    },
  };
}
