import * as z from "zod";
import { say } from "../../config/problem-codec.js";
import { resolveFrom } from "../../config/resolve-from.js";
import { choice, errorFor, section, show, text, whole, withDefaults } from "../../config/schema/kit.js";
import { isDnsLabel, isDnsSubdomain, LABEL_VALUE, QUANTITY } from "../../kube/kubernetes-names.js";
import { SECRET_NAME_PATTERN } from "../../secrets/secret-name.js";

const LABEL_KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const MAX_ID = 2_147_483_647;

/** A name Kubernetes accepts: a DNS-1123 label (`label`) or subdomain. */
function k8sName(kind: "label" | "subdomain", example: string) {
  const check = kind === "label" ? isDnsLabel : isDnsSubdomain;
  const limit = kind === "label" ? 63 : 253;
  return text({ fix: `write a Kubernetes name such as ${example}` }).refine(check, {
    error: (iss) =>
      say(
        `${show(iss.input)} is not a valid Kubernetes name`,
        `use lowercase letters, digits and '-'${kind === "subdomain" ? " and '.'" : ""}, starting and ending with a letter or digit, at most ${limit} characters, e.g. ${example}`,
      ),
  });
}

/** A quantity (`500m`, `2Gi`); a YAML number (`cpu: 1`) is taken as its text. */
const quantity = z
  .union([z.number(), z.string()], {
    error: errorFor(
      (input) => `must be a quantity such as 500m or 2Gi, got ${show(input)}`,
      "write a quantity such as 500m, 2, 512Mi or 4Gi",
    ),
  })
  .transform((value) => String(value))
  .refine((value) => QUANTITY.test(value), {
    error: (iss) =>
      say(`${show(iss.input)} is not a Kubernetes quantity`, "write a quantity such as 500m, 2, 512Mi or 4Gi"),
  });

const resourceList = z.record(
  z.string().regex(LABEL_KEY, {
    error: say(
      "is not a resource name",
      "use cpu, memory, ephemeral-storage or an extended resource such as nvidia.com/gpu",
    ),
  }),
  quantity,
  {
    error: errorFor(() => "must map resource names to quantities", "write e.g. { cpu: 500m, memory: 1Gi }"),
  },
);

const resources = section({
  requests: resourceList
    .default({ cpu: "500m", memory: "1Gi" })
    .meta({ description: "Requests of the engine container." }),
  limits: resourceList
    .default({ memory: "4Gi" })
    .meta({ description: "Limits of the engine container (no CPU limit by default: it throttles)." }),
});

const secrets = section({
  key: text({ pattern: SECRET_NAME_PATTERN, fix: "use letters, digits, '.', '_' and '-', e.g. value" })
    .optional()
    .meta({ description: "The key inside the Secret named after each secret. Default: `value`." }),
  from_secret: k8sName("subdomain", "errand-secrets").optional().meta({
    description:
      "One Secret holding every secret under its name as the key (the layout `secrets.dir` mounts); unset: one Secret per secret.",
  }),
}).superRefine((s, ctx) => {
  if (s.key !== undefined && s.from_secret !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["key"],
      input: s.key,
      message: say("is set beside from_secret, whose keys are the secret names", "keep one of key and from_secret"),
    });
  }
});

const nodeSelector = z.record(
  z.string().regex(LABEL_KEY, { error: say("is not a label key", "write a label key such as kubernetes.io/arch") }),
  z
    .string({ error: errorFor((input) => `must be a string, got ${show(input)}`, "quote the value") })
    .regex(LABEL_VALUE, {
      error: say("is not a label value", "use letters, digits, '-', '_' and '.', at most 63 characters"),
    }),
  { error: errorFor(() => "must map label keys to values", "write e.g. { kubernetes.io/arch: amd64 }") },
);

/** `execution.kubernetes`: how the `kubernetes` backend makes its Jobs (docs/kubernetes-backend.md). */
export const kubernetesSchema = section({
  namespace: k8sName("label", "errand").optional().meta({
    description:
      "Namespace of the Jobs. Default: the kubeconfig context's namespace (in a cluster: the controller's own), else `default`.",
  }),
  kubeconfig: text({ fix: "write the path of a kubeconfig file" }).optional().meta({
    description:
      "Kubeconfig file (relative paths start at the config file's folder). Default: the in-cluster service account, then $KUBECONFIG or ~/.kube/config.",
  }),
  context: text().optional().meta({ description: "Context of the kubeconfig. Default: its current context." }),
  service_account: k8sName("subdomain", "errand-engine").optional().meta({
    description: "Service account of the engine pods (its token is not mounted). Default: the namespace's `default`.",
  }),
  image_pull_policy: choice(["Always", "IfNotPresent", "Never"])
    .optional()
    .meta({ description: "imagePullPolicy of the engine container. Default: Kubernetes' own." }),
  image_pull_secrets: z
    .array(k8sName("subdomain", "registry-login"), {
      error: errorFor(() => "must be a list of Secret names", "write e.g. [registry-login]"),
    })
    .default([])
    .meta({ description: "Secrets used to pull engine images." }),
  node_selector: nodeSelector.default({}).meta({ description: "nodeSelector of the engine pods." }),
  resources: withDefaults(resources).meta({ description: "Resources of the engine container." }),
  run_as_user: whole(1, MAX_ID, 1000)
    .default(1000)
    .meta({ description: "UID of the engine container (never 0: pods run as non-root)." }),
  run_as_group: whole(1, MAX_ID, 1000).default(1000).meta({ description: "GID of the engine container." }),
  fs_group: whole(1, MAX_ID, 1000)
    .default(1000)
    .meta({ description: "fsGroup of the pod: owner group of its volumes." }),
  active_deadline_seconds: whole(60, 7 * 86_400)
    .optional()
    .meta({
      description:
        "activeDeadlineSeconds of each Job. Default: guardrails.max_job_duration_minutes × 60 + 300 (the loop stops runs at the guardrail; this is the cluster's backstop).",
    }),
  ttl_seconds_after_finished: whole(0, 30 * 86_400, 86_400)
    .default(86_400)
    .meta({
      description:
        "A finished Job (and its pod and log) is deleted after this. Logs shown by `errand runs show` and re-attachment after a restart need it.",
    }),
  termination_grace_seconds: whole(0, 3600, 30)
    .default(30)
    .meta({ description: "terminationGracePeriodSeconds: time between SIGTERM and SIGKILL when a run is stopped." }),
  workspace_size_limit: quantity
    .optional()
    .meta({ description: "sizeLimit of the workspace volume (an emptyDir). Default: none." }),
  secrets: withDefaults(secrets).meta({
    description:
      "Where secrets are in the cluster: `<name>` is the Secret `<name>`, key `value` (or the key `<name>` of `from_secret`).",
  }),
}).meta({ description: "Settings of the `kubernetes` backend (docs/kubernetes-backend.md)." });

/** `execution.kubernetes`, resolved (docs/kubernetes-backend.md): the kubeconfig path made absolute against `baseDir`. */
export const kubernetesConfig = (baseDir: string) =>
  kubernetesSchema.transform((k) => ({
    /** Namespace of the Jobs; undefined: the kubeconfig context's namespace, else `default`. */
    namespace: k.namespace,
    /** Kubeconfig file (absolute); undefined: in-cluster service account, then $KUBECONFIG or ~/.kube/config. */
    kubeconfig: resolveFrom(baseDir, k.kubeconfig),
    /** Context of the kubeconfig; undefined: its current context. */
    context: k.context,
    /** Service account of the engine pods; undefined: the namespace's `default`. */
    serviceAccount: k.service_account,
    imagePullPolicy: k.image_pull_policy,
    imagePullSecrets: k.image_pull_secrets,
    nodeSelector: k.node_selector,
    /** Requests and limits of the engine container (`cpu`, `memory`, ... → quantity). */
    resources: { requests: k.resources.requests, limits: k.resources.limits },
    runAsUser: k.run_as_user,
    runAsGroup: k.run_as_group,
    fsGroup: k.fs_group,
    /** The Job's activeDeadlineSeconds; undefined: guardrails.max_job_duration_minutes plus the margin of kubernetes-config.ts. */
    activeDeadlineSeconds: k.active_deadline_seconds,
    ttlSecondsAfterFinished: k.ttl_seconds_after_finished,
    /** The pod's terminationGracePeriodSeconds: SIGTERM to SIGKILL when a run is stopped. */
    terminationGraceSeconds: k.termination_grace_seconds,
    /** sizeLimit of the workspace emptyDir; undefined: none. */
    workspaceSizeLimit: k.workspace_size_limit,
    /** Where secrets are in the cluster. */
    secrets: { key: k.secrets.key ?? "value", fromSecret: k.secrets.from_secret },
  }));

/** `execution.kubernetes`, resolved. */
export type KubernetesExecutionConfig = z.output<ReturnType<typeof kubernetesConfig>>;
