import { DEFAULT_SECRET_LAYOUT, type KubernetesSecretLayout } from "../../kube/secret-location.js";

import type { KubernetesExecutionConfig } from "./kubernetes-schema.js";

export type { KubernetesExecutionConfig, KubernetesSecretLayout };

/**
 * Added to the duration guardrail to make the Job's own deadline. The loop
 * stops a run at the guardrail itself (TimedOut, the Job deleted); the
 * deadline is the cluster's backstop for a controller that is down then.
 */
export const DEADLINE_MARGIN_SECONDS = 300;

/** The defaults of every key, for a `kubernetes` backend configured with nothing. */
export const KUBERNETES_DEFAULTS: KubernetesExecutionConfig = {
  namespace: undefined,
  kubeconfig: undefined,
  context: undefined,
  serviceAccount: undefined,
  imagePullPolicy: undefined,
  imagePullSecrets: [],
  nodeSelector: {},
  resources: { requests: { cpu: "500m", memory: "1Gi" }, limits: { memory: "4Gi" } },
  runAsUser: 1000,
  runAsGroup: 1000,
  fsGroup: 1000,
  activeDeadlineSeconds: undefined,
  ttlSecondsAfterFinished: 86_400,
  terminationGraceSeconds: 30,
  workspaceSizeLimit: undefined,
  secrets: DEFAULT_SECRET_LAYOUT,
};

/** The Job's activeDeadlineSeconds for this configuration. */
export function activeDeadlineSeconds(config: KubernetesExecutionConfig, maxJobDurationMinutes: number): number {
  return config.activeDeadlineSeconds ?? Math.ceil(maxJobDurationMinutes * 60) + DEADLINE_MARGIN_SECONDS;
}
