import type { ObjectStore } from "./object-store.js";
import { KINDS, type Raw } from "./status.js";
import type { ContainerEnd } from "./workloads.js";

const now = (): string => new Date().toISOString();

/** A new pod's `initContainerStatuses` (each waiting), or nothing for a pod without init containers. */
export function initContainerStatuses(spec: Raw): { initContainerStatuses?: Raw[] } {
  if (spec.initContainers === undefined) return {};
  return {
    initContainerStatuses: spec.initContainers.map((c: Raw) => ({
      name: c.name,
      image: c.image,
      imageID: "",
      ready: false,
      restartCount: 0,
      started: false,
      state: { waiting: { reason: "PodInitializing" } },
    })),
  };
}

/** The kubelet records the pod's init containers as ended with `end` (they run before its containers). */
export function endInitContainers(store: ObjectStore, namespace: string, podName: string, end: ContainerEnd): void {
  store.update(KINDS.pods, namespace, podName, (p) => {
    for (const status of p.status.initContainerStatuses ?? []) {
      const terminated = {
        exitCode: end.exitCode,
        reason: end.reason ?? (end.exitCode === 0 ? "Completed" : "Error"),
        ...(end.message === undefined ? {} : { message: end.message }),
        startedAt: now(),
        finishedAt: now(),
      };
      Object.assign(status, { state: { terminated }, ready: end.exitCode === 0, started: false });
    }
  });
}

/** The kubelet cannot start the pod's init containers: they wait with `reason` (an image that cannot be pulled, say). */
export function waitInitContainers(
  store: ObjectStore,
  namespace: string,
  podName: string,
  reason: string,
  message: string,
): void {
  store.update(KINDS.pods, namespace, podName, (p) => {
    for (const status of p.status.initContainerStatuses ?? []) status.state = { waiting: { reason, message } };
  });
}
