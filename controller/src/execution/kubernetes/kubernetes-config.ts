import { DEFAULT_SECRET_LAYOUT, type KubernetesSecretLayout } from "../../kube/secret-location.js";

export type { KubernetesSecretLayout };
/** `execution.kubernetes`, resolved (docs/kubernetes-backend.md). */
export interface KubernetesExecutionConfig {
  /** Namespace of the Jobs; undefined: the kubeconfig context's namespace, else `default`. */
  namespace: string | undefined;
  /** Kubeconfig file (absolute); undefined: in-cluster service account, then $KUBECONFIG or ~/.kube/config. */
  kubeconfig: string | undefined;
  /** Context of the kubeconfig; undefined: its current context. */
  context: string | undefined;
  /** Service account of the engine pods; undefined: the namespace's `default`. */
  serviceAccount: string | undefined;
  imagePullPolicy: "Always" | "IfNotPresent" | "Never" | undefined;
  imagePullSecrets: string[];
  nodeSelector: Record<string, string>;
  /** Requests and limits of the engine container (`cpu`, `memory`, ... → quantity). */
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  runAsUser: number;
  runAsGroup: number;
  fsGroup: number;
  /** The Job's activeDeadlineSeconds; undefined: guardrails.max_job_duration_minutes plus {@link DEADLINE_MARGIN_SECONDS}. */
  activeDeadlineSeconds: number | undefined;
  ttlSecondsAfterFinished: number;
  /** The pod's terminationGracePeriodSeconds: SIGTERM to SIGKILL when a run is stopped. */
  terminationGraceSeconds: number;
  /** sizeLimit of the workspace emptyDir; undefined: none. */
  workspaceSizeLimit: string | undefined;
  secrets: KubernetesSecretLayout;
}

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
