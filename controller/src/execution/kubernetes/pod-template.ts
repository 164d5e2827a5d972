import type { V1Container, V1EnvVar, V1PodSpec, V1Volume } from "@kubernetes/client-node";
import type { EngineInvocation } from "../../engines/engine.js";
import type { SecretLocation } from "../../kube/secret-location.js";
import { addCheckout, type PodCheckout } from "./checkout-pod.js";
import { CONTAINER_PATHS, ENGINE_CONTAINER } from "./container-paths.js";
import type { KubernetesExecutionConfig } from "./kubernetes-config.js";
import { wrapperCommand } from "./pod-wrapper.js";

/** What the engine pod is made of. */
export interface PodInput {
  config: KubernetesExecutionConfig;
  image: string;
  runId: string;
  configMapName: string;
  invocation: EngineInvocation;
  /** The engine's stdin file in the container; undefined: empty stdin. */
  stdinFile: string | undefined;
  /** The API key variable and where its value is; undefined: no key. */
  apiKey: { env: string; location: SecretLocation } | undefined;
  /** The repository to clone before the engine starts, and push after; undefined: an empty workspace. */
  checkout?: PodCheckout;
}

const READ_ONLY = 0o444;

/**
 * The engine pod: one container running the wrapper (pod-wrapper.ts)
 * around the engine's command, as a non-root user with no privileges, no
 * service account token and no service links; the prompt and ticket from
 * the ConfigMap, the workspace, HOME and the result folder on emptyDirs.
 */
export function podSpec(input: PodInput): V1PodSpec {
  const { config } = input;
  const workspace: V1Volume = {
    name: "workspace",
    emptyDir: config.workspaceSizeLimit === undefined ? {} : { sizeLimit: config.workspaceSizeLimit },
  };
  const spec: V1PodSpec = {
    restartPolicy: "Never",
    automountServiceAccountToken: false,
    enableServiceLinks: false,
    terminationGracePeriodSeconds: config.terminationGraceSeconds,
    securityContext: {
      runAsNonRoot: true,
      runAsUser: config.runAsUser,
      runAsGroup: config.runAsGroup,
      fsGroup: config.fsGroup,
      seccompProfile: { type: "RuntimeDefault" },
    },
    containers: [engineContainer(input)],
    volumes: [
      { name: "input", configMap: { name: input.configMapName, defaultMode: READ_ONLY } },
      { name: "output", emptyDir: {} },
      workspace,
      { name: "home", emptyDir: {} },
    ],
  };
  if (config.serviceAccount !== undefined) spec.serviceAccountName = config.serviceAccount;
  if (Object.keys(config.nodeSelector).length > 0) spec.nodeSelector = { ...config.nodeSelector };
  if (config.imagePullSecrets.length > 0) spec.imagePullSecrets = config.imagePullSecrets.map((name) => ({ name }));
  if (input.checkout !== undefined) addCheckout(spec, input.checkout);
  return spec;
}

function engineContainer(input: PodInput): V1Container {
  const { config, invocation } = input;
  const container: V1Container = {
    name: ENGINE_CONTAINER,
    image: input.image,
    command: wrapperCommand(
      { stdin: input.stdinFile, message: CONTAINER_PATHS.terminationMessage, result: CONTAINER_PATHS.result },
      invocation.command,
      invocation.args,
      input.checkout !== undefined,
    ),
    workingDir: CONTAINER_PATHS.workspace,
    env: containerEnv(input),
    resources: { requests: { ...config.resources.requests }, limits: { ...config.resources.limits } },
    securityContext: {
      runAsNonRoot: true,
      runAsUser: config.runAsUser,
      runAsGroup: config.runAsGroup,
      allowPrivilegeEscalation: false,
      privileged: false,
      capabilities: { drop: ["ALL"] },
      seccompProfile: { type: "RuntimeDefault" },
    },
    terminationMessagePath: CONTAINER_PATHS.terminationMessage,
    terminationMessagePolicy: "FallbackToLogsOnError",
    volumeMounts: [
      { name: "input", mountPath: CONTAINER_PATHS.inputDir, readOnly: true },
      { name: "output", mountPath: CONTAINER_PATHS.outputDir },
      { name: "workspace", mountPath: CONTAINER_PATHS.workspace },
      { name: "home", mountPath: CONTAINER_PATHS.home },
    ],
  };
  if (config.imagePullPolicy !== undefined) container.imagePullPolicy = config.imagePullPolicy;
  return container;
}

/**
 * The container's environment, in the local backend's order: a base (HOME,
 * TERM, NO_COLOR), the engine's own variables, the ERRAND_* files last, and
 * the API key as a reference to its Secret: its value is never in the
 * manifest. The image's PATH and the rest of its environment stay.
 */
function containerEnv(input: PodInput): V1EnvVar[] {
  const values = new Map<string, string>([
    ["HOME", CONTAINER_PATHS.home],
    ["TERM", "dumb"],
    ["NO_COLOR", "1"],
  ]);
  for (const [name, value] of Object.entries(input.invocation.env)) values.set(name, value);
  values.set("ERRAND_RUN_ID", input.runId);
  values.set("ERRAND_WORKSPACE", CONTAINER_PATHS.workspace);
  values.set("ERRAND_PROMPT_FILE", CONTAINER_PATHS.prompt);
  values.set("ERRAND_TICKET_FILE", CONTAINER_PATHS.ticket);
  values.set("ERRAND_RESULT_FILE", CONTAINER_PATHS.result);
  const env: V1EnvVar[] = [];
  const key = input.apiKey;
  for (const [name, value] of values) if (name !== key?.env) env.push({ name, value });
  if (key !== undefined)
    env.push({ name: key.env, valueFrom: { secretKeyRef: { name: key.location.secret, key: key.location.key } } });
  return env;
}
