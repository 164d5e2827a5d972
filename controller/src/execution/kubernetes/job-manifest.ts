import type { Ticket } from "@errand/channel-sdk";
import type { V1ConfigMap, V1Job } from "@kubernetes/client-node";
import type { TaskRun } from "../../runs/task-run.js";
import { type PodInput, podSpec } from "./pod-template.js";
import { runAnnotations, runLabels } from "./run-labels.js";

/** Everything a run's Job is made from. */
export interface JobInput extends PodInput {
  namespace: string;
  jobName: string;
  run: TaskRun;
  ticket: Ticket;
  engineName: string;
  activeDeadlineSeconds: number;
}

/**
 * The run's Job: one pod, never retried (`backoffLimit: 0`: a run that
 * failed is retried by `errand runs retry`, as a new attempt), stopped by
 * the cluster at `activeDeadlineSeconds`, removed `ttlSecondsAfterFinished`
 * after it ended.
 */
export function buildJob(input: JobInput): V1Job {
  const labels = runLabels(input.run, input.ticket, input.engineName);
  const annotations = runAnnotations(input.run, input.ticket, input.engineName);
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: input.jobName, namespace: input.namespace, labels, annotations },
    spec: {
      backoffLimit: 0,
      completions: 1,
      parallelism: 1,
      activeDeadlineSeconds: input.activeDeadlineSeconds,
      ttlSecondsAfterFinished: input.config.ttlSecondsAfterFinished,
      template: {
        metadata: { labels: { ...labels }, annotations: { ...annotations } },
        spec: podSpec(input),
      },
    },
  };
}

/** The files of the input ConfigMap. */
export type InputFiles = Record<string, string>;

/**
 * The ConfigMap with the run's prompt and ticket, owned by its Job: the
 * garbage collector removes it with the Job (when it is deleted, or by its
 * TTL). It is made after the Job, which is why it is not in the Job's spec.
 */
export function buildInputConfigMap(job: V1Job, uid: string, name: string, files: InputFiles): V1ConfigMap {
  const metadata = job.metadata ?? {};
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name,
      namespace: metadata.namespace,
      labels: { ...metadata.labels },
      annotations: { ...metadata.annotations },
      ownerReferences: [{ apiVersion: "batch/v1", kind: "Job", name: metadata.name ?? "", uid }],
    },
    immutable: true,
    data: files,
  };
}
