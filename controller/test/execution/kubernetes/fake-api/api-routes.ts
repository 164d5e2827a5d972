import type { IncomingMessage, ServerResponse } from "node:http";
import { deleteJob } from "./job-deletion.js";
import { parseSelector } from "./label-selector.js";
import { deliver, type ObjectStore, type Watcher } from "./object-store.js";
import type { PodLogs } from "./pod-logs.js";
import { badRequest, KINDS, type Raw, type ResourceKind, StatusError } from "./status.js";
import { validateManifest } from "./validate.js";
import type { Workloads } from "./workloads.js";

const ROUTE =
  /^\/(api\/v1|apis\/batch\/v1)\/namespaces\/([^/]+)\/(jobs|pods|configmaps|secrets)(?:\/([^/]+))?(?:\/(log))?$/;

/** What the routes work on. */
export interface ApiState {
  store: ObjectStore;
  logs: PodLogs;
  workloads: Workloads;
  namespaces: Set<string>;
  /** Watch requests made while watches are suspended, answered on resume. */
  parked: Array<() => void>;
}

/** A parsed request. */
export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Raw;
}

/** Answers one request, or throws a StatusError. */
export function route(state: ApiState, request: ApiRequest, res: ServerResponse): void {
  const match = ROUTE.exec(request.path);
  if (match === null) throw new StatusError(404, "NotFound", "the server could not find the requested resource");
  const [, group, namespace = "", resource = "", name, sub] = match;
  const kind: ResourceKind = KINDS[resource as keyof typeof KINDS];
  if ((group === "apis/batch/v1") !== (resource === "jobs"))
    throw new StatusError(404, "NotFound", "the server could not find the requested resource");
  const { method, query, body } = request;
  if (sub === "log") {
    if (resource !== "pods" || method !== "GET" || name === undefined)
      throw new StatusError(405, "MethodNotAllowed", "the server does not allow this method on the requested resource");
    state.logs.serve(state.store.get(kind, namespace, name), query, res);
    return;
  }
  if (method === "GET" && name === undefined) {
    if (query.get("watch") === "true") return watch(state, kind, namespace, query, res);
    parseSelector(query.get("labelSelector"));
    const items = state.store.list(resource, namespace, query.get("labelSelector"));
    return json(res, 200, {
      kind: `${kind.kind}List`,
      apiVersion: kind.apiVersion,
      metadata: { resourceVersion: state.store.resourceVersion },
      items,
    });
  }
  if (method === "GET" && name !== undefined) return json(res, 200, state.store.get(kind, namespace, name));
  if (method === "POST" && name === undefined && resource !== "pods") {
    if (!state.namespaces.has(namespace))
      throw new StatusError(404, "NotFound", `namespaces "${namespace}" not found`, {
        name: namespace,
        kind: "namespaces",
      });
    validateManifest(kind, body, namespace);
    if (resource === "jobs") state.workloads.defaultJob(body);
    const created = state.store.create(kind, namespace, body);
    if (resource === "jobs") state.workloads.jobCreated(created);
    return json(res, 201, resource === "jobs" ? state.store.get(kind, namespace, created.metadata.name) : created);
  }
  if (method === "DELETE" && name !== undefined) {
    const policy =
      body?.propagationPolicy ?? query.get("propagationPolicy") ?? (resource === "jobs" ? "Orphan" : "Background");
    if (!["Orphan", "Background", "Foreground"].includes(policy))
      throw badRequest(`unsupported propagationPolicy ${JSON.stringify(policy)}`);
    if (resource === "jobs")
      return json(res, 200, deleteJob(state.store, state.workloads, namespace, name, policy, body?.preconditions?.uid));
    const removed = state.store.remove(kind, namespace, name);
    return json(res, 200, {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Success",
      details: { name, group: kind.group, kind: resource, uid: removed.metadata.uid },
    });
  }
  throw new StatusError(
    405,
    "MethodNotAllowed",
    `the server does not allow this method on the requested resource (${method} ${resource})`,
  );
}

/**
 * A watch: from `resourceVersion` (the changes after it, or 410 Gone as an
 * ERROR event when it was compacted away), or from now with the current
 * objects as ADDED; BOOKMARKs when asked; ends after `timeoutSeconds`.
 */
function watch(
  state: ApiState,
  kind: ResourceKind,
  namespace: string,
  query: URLSearchParams,
  res: ServerResponse,
): void {
  const matches = parseSelector(query.get("labelSelector"));
  const rvText = query.get("resourceVersion");
  const from = rvText === null || rvText === "" || rvText === "0" ? undefined : Number(rvText);
  if (from !== undefined && !Number.isSafeInteger(from))
    throw badRequest(`invalid resourceVersion ${JSON.stringify(rvText)}`);
  if (state.store.suspended) {
    state.parked.push(() => watch(state, kind, namespace, query, res));
    return;
  }
  if (res.destroyed) return;
  res.writeHead(200, { "content-type": "application/json" });
  // The API server sends the headers at once, before any event.
  res.flushHeaders();
  const watcher: Watcher = {
    resource: kind.resource,
    namespace,
    matches,
    bookmarks: query.get("allowWatchBookmarks") === "true",
    res,
    kind,
    sentRv: from ?? Number(state.store.resourceVersion),
  };
  if (from !== undefined) {
    try {
      state.store.checkWatchable(from);
    } catch (error) {
      res.end(`${JSON.stringify({ type: "ERROR", object: (error as StatusError).body() })}\n`);
      return;
    }
    for (const event of state.store.history) deliver(watcher, event);
  } else {
    for (const object of state.store.list(kind.resource, namespace, query.get("labelSelector")))
      res.write(`${JSON.stringify({ type: "ADDED", object })}\n`);
  }
  state.store.watchers.add(watcher);
  const timeout = Number(query.get("timeoutSeconds") ?? "0");
  const timer = timeout > 0 ? setTimeout(() => res.end(), timeout * 1000) : undefined;
  timer?.unref();
  res.on("close", () => {
    clearTimeout(timer);
    state.store.watchers.delete(watcher);
  });
}

/** Writes a JSON answer. */
export function json(res: ServerResponse, status: number, body: Raw): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Reads a request's JSON body (empty: undefined); a body that is not JSON is a 400. */
export async function readBody(req: IncomingMessage): Promise<Raw> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest("the body is not JSON");
  }
}
