import type { ControllerConfig } from "../config/controller-config.js";
import { secretReferences } from "./secret-references.js";
import { createSecretStore, type SecretStore } from "./secret-store.js";
import { secretValues } from "./secret-values.js";

type SecretSources = readonly SecretStore[];

/**
 * The secret values a command run from an operator's shell can find (the
 * environment, the secrets folder and, for the Kubernetes backend, the
 * cluster's Secrets), for masking what it prints. Unlike the controller's
 * start, a secret that is not found is no error here: what cannot be found
 * cannot be masked, and the command still shows what it can.
 */
export async function availableSecretValues(config: ControllerConfig, env: NodeJS.ProcessEnv): Promise<string[]> {
  const names = [...new Set(secretReferences(config).map((r) => r.name))];
  const store = createSecretStore({ env, dir: config.secrets.dir, sources: await clusterSources(config, names) });
  return secretValues(config, found(store, names));
}

async function clusterSources(config: ControllerConfig, names: string[]): Promise<SecretSources> {
  if (config.execution.backend !== "kubernetes" || names.length === 0) return [];
  try {
    const { createKubernetesSecretSource } = await import("./kubernetes-secret-source.js");
    return [await createKubernetesSecretSource({ config: config.execution.kubernetes }).load(names)];
  } catch {
    // The cluster may be out of reach from this shell: the environment and the folder still count.
    return [];
  }
}

function found(store: SecretStore, names: readonly string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of names) {
    const value = store.resolve(name);
    if (value !== undefined && value !== "") values[name] = value;
  }
  return values;
}
