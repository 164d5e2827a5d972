import type { Logger } from "@errand/channel-sdk";
import type { V1Job, V1Pod } from "@kubernetes/client-node";
import type { KubeClients } from "../../kube/kube-api.js";
import { type ResourceWatch, startResourceWatch } from "./resource-watch.js";
import { MANAGED_SELECTOR } from "./run-labels.js";

/** What a run follows of its Job. Calls must not throw. */
export interface JobListener {
  /** The Job (or another of the same name) changed, or was deleted. */
  job(job: V1Job, deleted: boolean): void;
  /** One of the Job's pods changed, or was deleted. */
  pod(pod: V1Pod, deleted: boolean): void;
}

/**
 * The backend's one view of the cluster: a watch of the Jobs and one of
 * the pods it made (selected by label), shared by every run, so that a
 * hundred runs cost two watch connections and no polling. Each run
 * subscribes by Job name.
 */
export interface ClusterView {
  /** Subscribes to a Job's changes; what the view already holds is delivered at once. Returns the unsubscribe. */
  subscribe(jobName: string, listener: JobListener): () => void;
  /** Resolves once both watches have listed once. */
  readonly synced: Promise<void>;
  close(): Promise<void>;
}

/** Options of {@link createClusterView}. */
export interface ClusterViewOptions {
  clients: KubeClients;
  namespace: string;
  logger: Logger;
  retryMs: number;
  timeoutSeconds: number;
}

/** The Job a pod belongs to, from its controller owner reference. */
function ownerJobName(pod: V1Pod): string | undefined {
  return pod.metadata?.ownerReferences?.find((ref) => ref.kind === "Job" && ref.controller === true)?.name;
}

/** Starts both watches. */
export function createClusterView(options: ClusterViewOptions): ClusterView {
  const { clients, namespace, logger } = options;
  const listeners = new Map<string, Set<JobListener>>();
  const pods = new Map<string, Map<string, V1Pod>>();
  const each = (jobName: string | undefined, call: (listener: JobListener) => void): void => {
    if (jobName === undefined) return;
    for (const listener of listeners.get(jobName) ?? []) call(listener);
  };
  const podsOf = (jobName: string): Map<string, V1Pod> => {
    let map = pods.get(jobName);
    if (map === undefined) pods.set(jobName, (map = new Map()));
    return map;
  };
  const common = {
    watch: clients.watch,
    labelSelector: MANAGED_SELECTOR,
    logger,
    retryMs: options.retryMs,
    timeoutSeconds: options.timeoutSeconds,
  };

  const jobs: ResourceWatch<V1Job> = startResourceWatch<V1Job>({
    ...common,
    what: "jobs",
    path: `/apis/batch/v1/namespaces/${namespace}/jobs`,
    list: async () => {
      const list = await clients.batch.listNamespacedJob({ namespace, labelSelector: MANAGED_SELECTOR });
      return { items: list.items, resourceVersion: list.metadata?.resourceVersion };
    },
    onUpsert: (job) => each(job.metadata?.name, (l) => l.job(job, false)),
    onDelete: (job) => each(job.metadata?.name, (l) => l.job(job, true)),
  });
  const podWatch: ResourceWatch<V1Pod> = startResourceWatch<V1Pod>({
    ...common,
    what: "pods",
    path: `/api/v1/namespaces/${namespace}/pods`,
    list: async () => {
      const list = await clients.core.listNamespacedPod({ namespace, labelSelector: MANAGED_SELECTOR });
      return { items: list.items, resourceVersion: list.metadata?.resourceVersion };
    },
    onUpsert: (pod) => {
      const jobName = ownerJobName(pod);
      if (jobName === undefined) return;
      podsOf(jobName).set(pod.metadata?.name ?? "", pod);
      each(jobName, (l) => l.pod(pod, false));
    },
    onDelete: (pod) => {
      const jobName = ownerJobName(pod);
      if (jobName === undefined) return;
      const map = pods.get(jobName);
      map?.delete(pod.metadata?.name ?? "");
      if (map?.size === 0) pods.delete(jobName);
      each(jobName, (l) => l.pod(pod, true));
    },
  });

  return {
    subscribe(jobName, listener) {
      let set = listeners.get(jobName);
      if (set === undefined) listeners.set(jobName, (set = new Set()));
      set.add(listener);
      const job = jobs.get(jobName);
      if (job !== undefined) listener.job(job, false);
      for (const pod of pods.get(jobName)?.values() ?? []) listener.pod(pod, false);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(jobName);
      };
    },
    synced: Promise.all([jobs.synced, podWatch.synced]).then(() => undefined),
    async close() {
      await Promise.all([jobs.close(), podWatch.close()]);
    },
  };
}
