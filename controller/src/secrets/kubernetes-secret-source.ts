import type { KubeConfig } from "@kubernetes/client-node";
import { apiProblem, makeClients } from "../kube/kube-api.js";
import { jobNamespace, type KubeConnection, loadKubeConfig } from "../kube/load-kube-config.js";
import {
  DEFAULT_SECRET_LAYOUT,
  describeLocation,
  type KubernetesSecretLayout,
  secretLocation,
  secretLocationProblem,
} from "../kube/secret-location.js";
import type { SecretStore } from "./secret-store.js";

// `execution.kubernetes` configured with nothing: the default cluster and namespace, each secret in a Secret of its name.
const NO_KUBERNETES_CONFIG = {
  kubeconfig: undefined,
  context: undefined,
  namespace: undefined,
  secrets: DEFAULT_SECRET_LAYOUT,
};

/** Options of {@link createKubernetesSecretSource}. */
export interface KubernetesSecretSourceOptions {
  /** `execution.kubernetes` (namespace, kubeconfig, secrets layout); undefined: every default. */
  config: (KubeConnection & { secrets: KubernetesSecretLayout }) | undefined;
  /** The cluster to read; default: loaded as `config` says. */
  kubeConfig?: KubeConfig;
}

/** Reads named secrets from Kubernetes Secrets. */
export interface KubernetesSecretSource {
  /** The namespace read. */
  readonly namespace: string;
  /**
   * Reads the named secrets once (each Secret one GET) and returns a store
   * answering from what was read: the secret store's `resolve` is
   * synchronous, and secrets are resolved once at start. Never rejects: a
   * Secret that could not be read is described as such.
   */
  load(names: readonly string[]): Promise<SecretStore>;
}

interface Found {
  value?: string;
  status: string;
}

/**
 * A secret source over Kubernetes Secrets, for the secret store beside the
 * environment and the secrets folder (docs/kubernetes-backend.md, "Secrets"):
 * the secret `anthropic-key` is the Secret `anthropic-key`, its value under
 * the key `value` (`execution.kubernetes.secrets.key`); with
 * `secrets.from_secret: errand-secrets` it is the key `anthropic-key` of
 * that one Secret. As with files, one trailing newline is dropped.
 */
export function createKubernetesSecretSource(options: KubernetesSecretSourceOptions): KubernetesSecretSource {
  const config = options.config ?? NO_KUBERNETES_CONFIG;
  const kubeConfig = options.kubeConfig ?? loadKubeConfig(config);
  const namespace = jobNamespace(config, kubeConfig);
  const { core } = makeClients(kubeConfig);
  const layout = config.secrets;

  const readSecret = async (secretName: string): Promise<{ data: Record<string, string> } | { status: string }> => {
    try {
      const secret = await core.readNamespacedSecret({ name: secretName, namespace });
      return { data: secret.data ?? {} };
    } catch (error) {
      const problem = apiProblem(error);
      if (problem.status === 404) return { status: "not found" };
      if (problem.status === 403) return { status: `forbidden: the controller may not get secrets in ${namespace}` };
      return { status: `could not be read: ${problem.message}` };
    }
  };

  return {
    namespace,
    async load(names) {
      const found = new Map<string, Found>();
      const secrets = new Map<string, Promise<Awaited<ReturnType<typeof readSecret>>>>();
      for (const name of new Set(names)) {
        const problem = secretLocationProblem(name, layout);
        if (problem !== undefined) {
          found.set(name, { status: "not looked at: not a valid Kubernetes Secret name" });
          continue;
        }
        const { secret } = secretLocation(name, layout);
        if (!secrets.has(secret)) secrets.set(secret, readSecret(secret));
      }
      for (const name of new Set(names)) {
        if (found.has(name)) continue;
        const location = secretLocation(name, layout);
        const read = await (secrets.get(location.secret) as Promise<Awaited<ReturnType<typeof readSecret>>>);
        if ("status" in read) {
          found.set(name, { status: read.status });
          continue;
        }
        const encoded = read.data[location.key];
        if (encoded === undefined) {
          found.set(name, { status: `the Secret has no key "${location.key}"` });
          continue;
        }
        const value = Buffer.from(encoded, "base64")
          .toString("utf8")
          .replace(/\r?\n$/, "");
        found.set(name, value === "" ? { status: "empty" } : { value, status: "found" });
      }
      return {
        resolve: (name) => found.get(name)?.value,
        describe: (name) => [
          `${describeLocation(namespace, secretLocation(name, layout))} (${found.get(name)?.status ?? "not loaded"})`,
        ],
      };
    },
  };
}
