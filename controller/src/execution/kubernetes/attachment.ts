import { isDnsLabel } from "../../kube/kubernetes-names.js";

/** What the kubernetes backend stores with a Running run, to find its Job after a restart. */
export interface KubernetesAttachment {
  namespace: string;
  jobName: string;
  /** The Job's uid: a Job made again under the same name is not this run's. */
  uid: string;
}

/** The attachment as stored (a plain JSON object). */
export function toRecord(attachment: KubernetesAttachment): Record<string, unknown> {
  return { ...attachment };
}

/** Reads a stored attachment back; undefined when it is missing or not one this backend wrote. */
export function parseAttachment(value: Record<string, unknown> | undefined): KubernetesAttachment | undefined {
  if (value === undefined) return undefined;
  const { namespace, jobName, uid } = value;
  if (typeof namespace !== "string" || typeof jobName !== "string" || typeof uid !== "string") return undefined;
  if (!isDnsLabel(namespace) || !isDnsLabel(jobName) || uid === "") return undefined;
  return { namespace, jobName, uid };
}

/** The run's logRef: where `kubectl logs` finds it. */
export function logRefOf(attachment: Pick<KubernetesAttachment, "namespace" | "jobName">): string {
  return `kubernetes:${attachment.namespace}/job/${attachment.jobName}`;
}
