import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { type ApiRequest, type ApiState, json, readBody, route } from "./api-routes.js";
import { waitInitContainers } from "./init-containers.js";
import { deliver, ObjectStore, type StoredEvent } from "./object-store.js";
import { PodLogs } from "./pod-logs.js";
import { KINDS, type Raw, StatusError } from "./status.js";
import { type ContainerEnd, Workloads } from "./workloads.js";

/** A request the fake received, for assertions. */
export interface RecordedRequest extends ApiRequest {
  /** The answer's status once sent (0 before: a watch being held). */
  status: number;
}

/**
 * A strict stand-in for the Kubernetes API server on 127.0.0.1, spoken to
 * by the real @kubernetes/client-node: Jobs, Pods, ConfigMaps and Secrets
 * (create, get, list, watch with resourceVersion, bookmarks and 410 Gone,
 * delete with propagation), pod logs, bearer-token authentication, real
 * status codes and Status bodies, and every manifest validated against the
 * official schemas and the name rules they miss. Tests drive what the
 * controllers and the kubelet would do (a pod that runs, ends, is OOM
 * killed, passes its deadline, loses its node).
 */
export class FakeKubeApi {
  readonly token = "fake-token";
  readonly requests: RecordedRequest[] = [];
  readonly namespace: string;
  private readonly store = new ObjectStore();
  private readonly logs = new PodLogs();
  private readonly workloads = new Workloads(this.store, this.logs);
  private readonly state: ApiState;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    namespace: string,
    namespaces: string[],
  ) {
    this.namespace = namespace;
    this.state = {
      store: this.store,
      logs: this.logs,
      workloads: this.workloads,
      namespaces: new Set(namespaces),
      parked: [],
    };
    server.on("request", (req, res) => {
      void (async () => {
        const url = new URL(req.url ?? "/", "http://fake");
        const request: RecordedRequest = {
          method: req.method ?? "GET",
          path: url.pathname,
          query: url.searchParams,
          body: undefined,
          status: 0,
        };
        // Recorded when it arrives: a watch is answered for as long as it lasts.
        this.requests.push(request);
        res.on("finish", () => (request.status = res.statusCode));
        try {
          if (req.headers.authorization !== `Bearer ${this.token}`)
            throw new StatusError(401, "Unauthorized", "Unauthorized");
          request.body = await readBody(req);
          route(this.state, request, res);
        } catch (error) {
          const status =
            error instanceof StatusError
              ? error
              : new StatusError(500, "InternalError", `fake API server: ${(error as Error).message}`);
          if (!res.headersSent) json(res, status.code, status.body());
          else res.destroy();
        }
        if (res.headersSent) request.status = res.statusCode;
      })();
    });
  }

  /** Starts a fake with the namespaces that exist (the first is the tests' default). */
  static async start(namespaces: string[] = ["errand", "default"]): Promise<FakeKubeApi> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    return new FakeKubeApi(server, `http://127.0.0.1:${port}`, namespaces[0] ?? "errand", namespaces);
  }

  /** A KubeConfig for this server, its context in `namespace`. */
  kubeConfig(namespace = this.namespace): KubeConfig {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: "fake", server: this.url, skipTLSVerify: true }],
      users: [{ name: "errand", token: this.token }],
      contexts: [{ name: "fake", cluster: "fake", user: "errand", namespace }],
      currentContext: "fake",
    });
    return kubeConfig;
  }

  // Objects.

  job(name: string): Raw | undefined {
    return this.store.find("jobs", this.namespace, name);
  }

  configMap(name: string): Raw | undefined {
    return this.store.find("configmaps", this.namespace, name);
  }

  pod(jobName: string): Raw {
    return this.workloads.podOf(this.namespace, jobName);
  }

  /** Every change so far, in order. */
  events(): readonly StoredEvent[] {
    return this.store.history;
  }

  /** The Secret `name` as stored, or undefined. */
  secret(name: string): Raw | undefined {
    return this.store.find("secrets", this.namespace, name);
  }

  /** The pod's init container fails with `end` (its termination message): the engine never starts. */
  failInit(jobName: string, end: ContainerEnd): void {
    this.workloads.failInit(this.namespace, jobName, end);
  }

  /** The pod's init containers wait with this reason (their image cannot be pulled, say). */
  waitInit(jobName: string, reason: string, message: string): void {
    waitInitContainers(
      this.store,
      this.namespace,
      this.workloads.podOf(this.namespace, jobName).metadata.name,
      reason,
      message,
    );
  }

  /** Stores a Secret (values in clear; stored base64 as the API does). */
  putSecret(name: string, data: Record<string, string>, namespace = this.namespace): void {
    const encoded = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString("base64")]));
    this.store.create(KINDS.secrets, namespace, {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name, namespace },
      type: "Opaque",
      data: encoded,
    });
  }

  /** A change the backend does not watch (a ConfigMap of someone else): moves the resourceVersion on. */
  unrelatedChange(): void {
    this.store.create(KINDS.configmaps, this.namespace, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: `other-${this.store.resourceVersion}` },
      data: {},
    });
  }

  /** Manifests a controller of the fake refused. */
  get problems(): readonly string[] {
    return this.workloads.problems;
  }

  // What the controllers and the kubelet do.

  /** Starts the Job's container; returns its environment, or undefined when it waits (CreateContainerConfigError). */
  startPod(jobName: string): Record<string, string> | undefined {
    return this.workloads.startPod(this.namespace, jobName);
  }

  log(jobName: string, ...lines: string[]): void {
    this.logs.append(this.pod(jobName).metadata.name, lines);
  }

  /** Every line the container logged. */
  logText(jobName: string): string {
    return this.logs.text(this.pod(jobName).metadata.name);
  }

  finishPod(jobName: string, end: ContainerEnd): void {
    this.workloads.finishPod(this.namespace, jobName, end);
  }

  oomKill(jobName: string, message?: string): void {
    this.workloads.finishPod(this.namespace, jobName, {
      exitCode: 137,
      reason: "OOMKilled",
      ...(message === undefined ? {} : { message }),
    });
  }

  exceedDeadline(jobName: string): Promise<void> {
    return this.workloads.exceedDeadline(this.namespace, jobName);
  }

  loseNode(jobName: string): Promise<void> {
    return this.workloads.loseNode(this.namespace, jobName);
  }

  waitPod(jobName: string, reason: string, message: string): void {
    this.workloads.waitPod(this.namespace, jobName, reason, message);
  }

  // Watches and streams.

  /** Cuts every watch connection, as a network failure or an API server restart does. */
  dropWatches(): number {
    const watchers = [...this.store.watchers];
    for (const w of watchers) w.res.destroy();
    return watchers.length;
  }

  /** Ends every watch cleanly after what was written, as the server's timeoutSeconds does. */
  endWatches(): number {
    const watchers = [...this.store.watchers];
    for (const w of watchers) w.res.end();
    return watchers.length;
  }

  /** The current resourceVersion. */
  get resourceVersion(): string {
    return this.store.resourceVersion;
  }

  /** Events stop reaching watches and new watches wait, until {@link resumeWatches}. */
  suspendWatches(): void {
    this.store.suspended = true;
  }

  /** Delivers what watches missed, then answers the watches that waited. */
  resumeWatches(): void {
    this.store.suspended = false;
    for (const watcher of this.store.watchers) for (const event of this.store.history) deliver(watcher, event);
    for (const answer of this.state.parked.splice(0)) answer();
  }

  /** Compacts the history: watching from any earlier resourceVersion is answered 410 Gone. */
  compact(): void {
    this.store.compact();
  }

  /** Sends a BOOKMARK with the current resourceVersion to each watch that asked for bookmarks. */
  bookmark(): void {
    for (const watcher of this.store.watchers) {
      if (!watcher.bookmarks) continue;
      watcher.sentRv = Number(this.store.resourceVersion);
      watcher.res.write(
        `${JSON.stringify({ type: "BOOKMARK", object: { kind: watcher.kind.kind, apiVersion: watcher.kind.apiVersion, metadata: { resourceVersion: this.store.resourceVersion } } })}\n`,
      );
    }
  }

  /** Cuts every log stream that follows a container. */
  dropLogStreams(): number {
    return this.logs.dropStreams();
  }

  /** Watch connections open now, by resource. */
  openWatches(resource: string): number {
    return [...this.store.watchers].filter((w) => w.resource === resource).length;
  }

  async close(): Promise<void> {
    for (const w of this.store.watchers) w.res.destroy();
    this.logs.dropStreams();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
