import type { KubeConfig } from "@kubernetes/client-node";
import type { ControllerConfig } from "../config/controller-config.js";
import { type ResolvedSecrets, resolveSecrets } from "./resolve-secrets.js";
import { secretReferences } from "./secret-references.js";
import { createSecretStore } from "./secret-store.js";

/**
 * Resolves every secret the configuration names, from the environment, the
 * secrets folder and, when runs go to Kubernetes, the cluster's Secrets
 * (read once, each Secret one GET; docs/kubernetes-backend.md, "Secrets").
 * Throws one SecretNotFoundError listing every missing secret and where it
 * was looked for.
 */
export async function resolveAllSecrets(
  config: ControllerConfig,
  env: NodeJS.ProcessEnv,
  kubeConfig?: KubeConfig,
): Promise<ResolvedSecrets> {
  if (config.execution.backend !== "kubernetes") return resolveSecrets(config, { env });
  const { createKubernetesSecretSource } = await import("./kubernetes-secret-source.js");
  const names = [...new Set(secretReferences(config).map((r) => r.name))];
  const cluster = await createKubernetesSecretSource({
    config: config.execution.kubernetes,
    ...(kubeConfig ? { kubeConfig } : {}),
  }).load(names);
  return resolveSecrets(config, createSecretStore({ env, dir: config.secrets.dir, sources: [cluster] }));
}
