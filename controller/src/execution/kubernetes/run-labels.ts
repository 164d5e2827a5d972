import type { Ticket } from "@errand/channel-sdk";
import { toLabelValue } from "../../kube/kubernetes-names.js";
import type { TaskRun } from "../../runs/task-run.js";

/** Label on every object the backend makes; the watches select on it. */
const MANAGED_BY = { key: "app.kubernetes.io/managed-by", value: "errand" } as const;
/** The label selector of the backend's watches. */
export const MANAGED_SELECTOR = `${MANAGED_BY.key}=${MANAGED_BY.value}`;
/** Label holding the run id (as a label value); pods inherit it from the Job's template. */
export const RUN_LABEL = "errand.dev/run";
/** Annotation holding the exact run id: the proof that a Job is this run's. */
export const RUN_ID_ANNOTATION = "errand.dev/run-id";

/** True when `object` (a Job found by the name the run's id gives) carries that run's id: it is the run's own. */
export function belongsToRun(object: { metadata?: { annotations?: Record<string, string> } }, runId: string): boolean {
  return object.metadata?.annotations?.[RUN_ID_ANNOTATION] === runId;
}

/**
 * Labels of a run's Job, pod and ConfigMap: for `kubectl get -l` and the
 * backend's selectors. Values are cut and cleaned to what a label holds.
 */
export function runLabels(run: TaskRun, ticket: Ticket, engineName: string): Record<string, string> {
  const labels: Record<string, string> = {
    "app.kubernetes.io/name": "errand-engine",
    "app.kubernetes.io/component": "agent-run",
    [MANAGED_BY.key]: MANAGED_BY.value,
    [RUN_LABEL]: toLabelValue(run.id),
    "errand.dev/engine": toLabelValue(engineName),
    "errand.dev/ticket-source": toLabelValue(ticket.source),
    "errand.dev/ticket": toLabelValue(ticket.id),
  };
  // An empty value is valid but says nothing.
  for (const [key, value] of Object.entries(labels)) if (value === "") delete labels[key];
  return labels;
}

/** Annotations with the exact values the labels may have shortened. */
export function runAnnotations(run: TaskRun, ticket: Ticket, engineName: string): Record<string, string> {
  const annotations: Record<string, string> = {
    [RUN_ID_ANNOTATION]: run.id,
    "errand.dev/attempt": String(run.attempt),
    "errand.dev/engine": engineName,
    "errand.dev/ticket": `${ticket.source}:${ticket.id}`,
  };
  if (ticket.externalUrl !== "") annotations["errand.dev/ticket-url"] = ticket.externalUrl;
  if (ticket.repoUrl !== "") annotations["errand.dev/repo-url"] = ticket.repoUrl;
  return annotations;
}
