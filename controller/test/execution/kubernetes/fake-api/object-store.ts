import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { parseSelector } from "./label-selector.js";
import { alreadyExists, gone, notFound, type Raw, type ResourceKind } from "./status.js";

/** One change, as watches deliver it. */
export interface StoredEvent {
  rv: number;
  type: "ADDED" | "MODIFIED" | "DELETED";
  resource: string;
  namespace: string;
  object: Raw;
}

/** A watch connection. */
export interface Watcher {
  resource: string;
  namespace: string;
  matches: (labels: Record<string, string> | undefined) => boolean;
  bookmarks: boolean;
  res: ServerResponse;
  kind: ResourceKind;
  /** Every event up to this version was delivered (or was not for this watcher). */
  sentRv: number;
}

const copy = <T>(value: T): T => structuredClone(value);

/**
 * The fake's etcd: objects by resource and namespace/name, one global
 * resourceVersion, the history of changes for watches, and compaction (a
 * watch from a version older than the last compaction gets 410 Gone).
 */
export class ObjectStore {
  private rv = 1;
  private compactedRv = 0;
  private readonly objects = new Map<string, Map<string, Raw>>();
  readonly history: StoredEvent[] = [];
  readonly watchers = new Set<Watcher>();
  /** While set, events are kept from watchers and new watches wait (see FakeKubeApi.suspendWatches). */
  suspended = false;

  get resourceVersion(): string {
    return String(this.rv);
  }

  list(resource: string, namespace: string, selector: string | null): Raw[] {
    const matches = parseSelector(selector);
    return [...(this.objects.get(resource)?.values() ?? [])]
      .filter((o) => o.metadata.namespace === namespace && matches(o.metadata.labels))
      .map(copy);
  }

  get(kind: ResourceKind, namespace: string, name: string): Raw {
    const found = this.objects.get(kind.resource)?.get(`${namespace}/${name}`);
    if (found === undefined) throw notFound(kind, name);
    return copy(found);
  }

  find(resource: string, namespace: string, name: string): Raw | undefined {
    const found = this.objects.get(resource)?.get(`${namespace}/${name}`);
    return found === undefined ? undefined : copy(found);
  }

  create(kind: ResourceKind, namespace: string, object: Raw): Raw {
    const map = this.mapOf(kind.resource);
    const key = `${namespace}/${object.metadata.name}`;
    if (map.has(key)) throw alreadyExists(kind, object.metadata.name);
    const stored = copy(object);
    stored.metadata = {
      ...stored.metadata,
      namespace,
      uid: randomUUID(),
      creationTimestamp: new Date().toISOString(),
      generation: 1,
    };
    return this.write(kind.resource, namespace, "ADDED", stored);
  }

  /** Applies `change` to the stored object and records a MODIFIED event. */
  update(kind: ResourceKind, namespace: string, name: string, change: (object: Raw) => void): Raw {
    const current = this.get(kind, namespace, name);
    change(current);
    return this.write(kind.resource, namespace, "MODIFIED", current);
  }

  remove(kind: ResourceKind, namespace: string, name: string): Raw {
    const current = this.get(kind, namespace, name);
    this.objects.get(kind.resource)?.delete(`${namespace}/${name}`);
    return this.record(kind.resource, namespace, "DELETED", current);
  }

  /** Makes every version up to now too old to watch from. */
  compact(): void {
    this.compactedRv = this.rv;
  }

  /** Throws 410 Gone for a version compacted away. */
  checkWatchable(rv: number): void {
    if (rv < this.compactedRv) throw gone(`too old resource version: ${rv} (${this.compactedRv})`);
  }

  private write(resource: string, namespace: string, type: StoredEvent["type"], object: Raw): Raw {
    this.mapOf(resource).set(`${namespace}/${object.metadata.name}`, object);
    return this.record(resource, namespace, type, object);
  }

  private record(resource: string, namespace: string, type: StoredEvent["type"], object: Raw): Raw {
    this.rv += 1;
    object.metadata.resourceVersion = String(this.rv);
    const event: StoredEvent = { rv: this.rv, type, resource, namespace, object: copy(object) };
    this.history.push(event);
    if (!this.suspended) for (const watcher of this.watchers) deliver(watcher, event);
    return copy(object);
  }

  private mapOf(resource: string): Map<string, Raw> {
    let map = this.objects.get(resource);
    if (map === undefined) this.objects.set(resource, (map = new Map()));
    return map;
  }
}

/** Writes an event to a watcher when it is for its resource, namespace and selector. */
export function deliver(watcher: Watcher, event: StoredEvent): void {
  if (event.rv <= watcher.sentRv) return;
  watcher.sentRv = event.rv;
  if (
    event.resource !== watcher.resource
    || event.namespace !== watcher.namespace
    || !watcher.matches(event.object.metadata.labels)
  )
    return;
  if (!watcher.res.writableEnded && !watcher.res.destroyed)
    watcher.res.write(`${JSON.stringify({ type: event.type, object: event.object })}\n`);
}
