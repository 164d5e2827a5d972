import type { KubernetesExecutionConfig } from "../execution/kubernetes/kubernetes-config.js";
import { resolveFrom } from "./resolve-from.js";
import type { ControllerDocument } from "./schema/controller-schema.js";
import { kubernetesSchema } from "./schema/kubernetes-schema.js";

type ExecutionSection = ControllerDocument["execution"];

/**
 * `execution.kubernetes`, resolved: always set when the backend is
 * `kubernetes` (every default when the section is absent), undefined when
 * the section is absent and another backend runs.
 */
export function buildKubernetes(section: ExecutionSection, baseDir: string): KubernetesExecutionConfig | undefined {
  if (section.kubernetes === undefined && section.backend !== "kubernetes") return undefined;
  const k = section.kubernetes ?? kubernetesSchema.parse({});
  return {
    namespace: k.namespace,
    kubeconfig: k.kubeconfig === undefined ? undefined : resolveFrom(baseDir, k.kubeconfig),
    context: k.context,
    serviceAccount: k.service_account,
    imagePullPolicy: k.image_pull_policy,
    imagePullSecrets: k.image_pull_secrets,
    nodeSelector: k.node_selector,
    resources: { requests: k.resources.requests, limits: k.resources.limits },
    runAsUser: k.run_as_user,
    runAsGroup: k.run_as_group,
    fsGroup: k.fs_group,
    activeDeadlineSeconds: k.active_deadline_seconds,
    ttlSecondsAfterFinished: k.ttl_seconds_after_finished,
    terminationGraceSeconds: k.termination_grace_seconds,
    workspaceSizeLimit: k.workspace_size_limit,
    secrets: { key: k.secrets.key ?? "value", fromSecret: k.secrets.from_secret },
  };
}
