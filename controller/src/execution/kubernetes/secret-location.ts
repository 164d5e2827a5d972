import type { KubernetesSecretLayout } from "./kubernetes-config.js";
import { isDnsSubdomain } from "./kubernetes-names.js";

/** Where a named secret is in the cluster. */
export interface SecretLocation {
  /** The Secret's name. */
  secret: string;
  /** The key inside it. */
  key: string;
}

/**
 * The Secret and key of the secret `name` (docs/kubernetes-backend.md,
 * "Secrets"): by default the Secret named `name` with its value under
 * `secrets.key` (`value`); with `secrets.from_secret`, the key `name` of
 * that one Secret, as `secrets.dir` sees it when the Secret is mounted.
 */
export function secretLocation(name: string, layout: KubernetesSecretLayout): SecretLocation {
  return layout.fromSecret === undefined ? { secret: name, key: layout.key } : { secret: layout.fromSecret, key: name };
}

/** Why the secret `name` cannot be a Kubernetes Secret's name in this layout, or undefined when it can. */
export function secretLocationProblem(name: string, layout: KubernetesSecretLayout): string | undefined {
  if (layout.fromSecret !== undefined || isDnsSubdomain(name)) return undefined;
  return `the secret name "${name}" is not a valid Kubernetes Secret name (lowercase letters, digits, '-' and '.')`;
}

/** `secret/key` as messages show it. */
export function describeLocation(namespace: string, location: SecretLocation): string {
  return `Kubernetes Secret ${namespace}/${location.secret}, key "${location.key}"`;
}
