import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../../test/support/temp-dir.js";
import { ConfigError, formatProblem, loadControllerConfig } from "../../../src/config/index.js";
import { ControllerErrorCode } from "../../../src/errors.js";
import { createKubernetesBackend } from "../../../src/execution/kubernetes/kubernetes-backend.js";
import {
  activeDeadlineSeconds,
  KUBERNETES_DEFAULTS,
  type KubernetesExecutionConfig,
} from "../../../src/execution/kubernetes/kubernetes-config.js";
import { recordingLogger } from "../helpers/local-setup.js";

const dir = tempDir("errand-k8s-config-");
let n = 0;
function file(text: string): string {
  const path = join(dir, `c${n++}.yaml`);
  writeFileSync(path, text);
  return path;
}
const load = async (text: string) => (await loadControllerConfig(file(text), { env: {} })).config;
async function problems(text: string): Promise<string[]> {
  const error = await loadControllerConfig(file(text), { env: {} }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems.map(formatProblem);
}

describe("execution.kubernetes", () => {
  it("is every default with backend kubernetes and no section, and absent with the local backend", async () => {
    expect((await load("execution:\n  backend: kubernetes\n")).execution.kubernetes).toEqual(KUBERNETES_DEFAULTS);
    expect((await load("execution:\n  backend: local\n")).execution.kubernetes).toBeUndefined();
  });

  it("reads every key, a relative kubeconfig from the config file's folder", async () => {
    const config = await load(`execution:
  backend: kubernetes
  kubernetes:
    namespace: agents
    kubeconfig: kube/config
    context: prod
    service_account: errand-engine
    image_pull_policy: IfNotPresent
    image_pull_secrets: [registry-login]
    node_selector: { kubernetes.io/arch: arm64 }
    resources:
      requests: { cpu: 1, memory: 2Gi }
      limits: { memory: 6Gi, nvidia.com/gpu: 1 }
    run_as_user: 10001
    run_as_group: 10001
    fs_group: 10001
    active_deadline_seconds: 7200
    ttl_seconds_after_finished: 600
    termination_grace_seconds: 10
    workspace_size_limit: 20Gi
    secrets:
      from_secret: errand-secrets
`);
    expect(config.execution.kubernetes).toEqual({
      namespace: "agents",
      kubeconfig: join(dir, "kube/config"),
      context: "prod",
      serviceAccount: "errand-engine",
      imagePullPolicy: "IfNotPresent",
      imagePullSecrets: ["registry-login"],
      nodeSelector: { "kubernetes.io/arch": "arm64" },
      resources: { requests: { cpu: "1", memory: "2Gi" }, limits: { memory: "6Gi", "nvidia.com/gpu": "1" } },
      runAsUser: 10001,
      runAsGroup: 10001,
      fsGroup: 10001,
      activeDeadlineSeconds: 7200,
      ttlSecondsAfterFinished: 600,
      terminationGraceSeconds: 10,
      workspaceSizeLimit: "20Gi",
      secrets: { key: "value", fromSecret: "errand-secrets" },
    });
  });

  it("refuses what Kubernetes would refuse, each with the fix", async () => {
    const found = await problems(`execution:
  backend: kubernetes
  kubernetes:
    namespace: Agents_NS
    resources:
      requests: { cpu: lots }
    run_as_user: 0
    image_pull_policy: always
    secrets:
      key: token
      from_secret: errand-secrets
    node_selector: { arch: "x86 64" }
    namespce: typo
`);
    expect(found).toEqual([
      `execution.kubernetes.namespace (line 4): "Agents_NS" is not a valid Kubernetes name; use lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters, e.g. errand`,
      'execution.kubernetes.resources.requests.cpu (line 6): "lots" is not a Kubernetes quantity; write a quantity such as 500m, 2, 512Mi or 4Gi',
      "execution.kubernetes.run_as_user (line 7): must be a whole number from 1 to 2147483647, got 0; write a number such as 1000 (the default)",
      'execution.kubernetes.image_pull_policy (line 8): is "always"; did you mean Always? Or use one of Always, IfNotPresent, Never',
      "execution.kubernetes.secrets.key (line 10): is set beside from_secret, whose keys are the secret names; keep one of key and from_secret",
      "execution.kubernetes.node_selector.arch (line 12): is not a label value; use letters, digits, '-', '_' and '.', at most 63 characters",
      expect.stringMatching(
        /^execution\.kubernetes\.namespce \(line 13\): is not a known key; did you mean execution\.kubernetes\.namespace\? Known keys: namespace, kubeconfig, /,
      ),
    ]);
  });

  it("makes the Jobs' deadline from the duration guardrail unless it is set", () => {
    expect(activeDeadlineSeconds(KUBERNETES_DEFAULTS, 60)).toBe(3900);
    expect(activeDeadlineSeconds(KUBERNETES_DEFAULTS, 1.5)).toBe(390);
    expect(activeDeadlineSeconds({ ...KUBERNETES_DEFAULTS, activeDeadlineSeconds: 100 }, 60)).toBe(100);
  });

  it("a kubeconfig that cannot be read, a context it lacks or no cluster at all fail the backend's creation, naming the fix", () => {
    const create = (config: Partial<KubernetesExecutionConfig>, kubeConfig?: KubeConfig) => () =>
      createKubernetesBackend({
        config: { ...KUBERNETES_DEFAULTS, ...config },
        engines: {},
        maxJobDurationMinutes: 60,
        logger: recordingLogger(),
        ...(kubeConfig ? { kubeConfig } : {}),
      });
    expect(create({ kubeconfig: join(dir, "missing-kubeconfig") })).toThrow(
      expect.objectContaining({
        code: ControllerErrorCode.InvalidConfig,
        message: expect.stringContaining(`the kubeconfig ${join(dir, "missing-kubeconfig")} could not be read`),
      }),
    );
    const path = file(`apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "https://k8s.example:6443" } }]
users: [{ name: u, user: { token: t } }]
contexts: [{ name: staging, context: { cluster: c, user: u, namespace: agents } }]
current-context: staging
`);
    expect(create({ kubeconfig: path, context: "prod" })).toThrow(
      expect.objectContaining({
        code: ControllerErrorCode.InvalidConfig,
        message: 'execution.kubernetes.context: the kubeconfig has no context "prod"',
        hint: "use one of staging",
      }),
    );
    expect(create({ kubeconfig: path })().name).toBe("kubernetes");
    expect(create({}, new KubeConfig())).toThrow(
      expect.objectContaining({
        code: ControllerErrorCode.InvalidConfig,
        message: expect.stringContaining("names no cluster"),
      }),
    );
  });
});
