import type { V1Pod } from "@kubernetes/client-node";
import type { KubeClients } from "../../kube/kube-api.js";
import { toLabelValue } from "../../kube/kubernetes-names.js";
import { timeMs } from "./job-status.js";
import { RUN_LABEL } from "./run-labels.js";

/**
 * The pod of a run's Job as the API server has it now: the newest pod with
 * the run's label that the Job (by uid) owns; undefined when there is none.
 * Rejects when the pods cannot be listed.
 */
export async function readRunPod(
  clients: KubeClients,
  namespace: string,
  runId: string,
  jobUid: string,
): Promise<V1Pod | undefined> {
  const list = await clients.core.listNamespacedPod({
    namespace,
    labelSelector: `${RUN_LABEL}=${toLabelValue(runId)}`,
  });
  return list.items
    .filter((pod) => pod.metadata?.ownerReferences?.some((ref) => ref.uid === jobUid))
    .sort((a, b) => (timeMs(a.metadata?.creationTimestamp) ?? 0) - (timeMs(b.metadata?.creationTimestamp) ?? 0))
    .at(-1);
}
