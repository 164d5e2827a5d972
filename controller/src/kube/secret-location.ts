import { isDnsSubdomain } from "./kubernetes-names.js";

/** Where the engine's API key and other named secrets live in the cluster (`execution.kubernetes.secrets`). */
export interface KubernetesSecretLayout {
  /** The key inside the Secret named after each secret; default `value`. */
  key: string;
  /** When set, every secret is the key `<secret name>` of this one Secret instead. */
  fromSecret: string | undefined;
}

/** The layout when `execution.kubernetes.secrets` is not set: each secret is the key `value` of a Secret of its name. */
export const DEFAULT_SECRET_LAYOUT: KubernetesSecretLayout = { key: "value", fromSecret: undefined };

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
