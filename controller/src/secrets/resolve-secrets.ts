import type { ControllerConfig } from "../config/controller-config.js";
import { type MissingSecret, SecretNotFoundError } from "./secret-not-found-error.js";
import { secretReferences } from "./secret-references.js";
import { createSecretStore, type SecretStore, type SecretStoreOptions } from "./secret-store.js";

/** Secret values by name. Never log it: pass its values to the logger's `secrets` so they are masked. */
export type ResolvedSecrets = Record<string, string>;

/**
 * Resolves every secret the configuration names (see `secretReferences`)
 * from `store`, or from a store over `{ env }` and the config's `secrets.dir`.
 * Throws one {@link SecretNotFoundError} listing every missing secret.
 */
export function resolveSecrets(
  config: ControllerConfig,
  store: SecretStore | Omit<SecretStoreOptions, "dir"> = {},
): ResolvedSecrets {
  const source = isSecretStore(store) ? store : createSecretStore({ env: store.env, dir: config.secrets.dir });
  const resolved: ResolvedSecrets = {};
  // The webhook's missing secrets come first: they were looked for while the file was read.
  const missing = new Map<string, MissingSecret>();
  for (const m of config.missingSecrets ?? []) {
    const known = missing.get(m.name);
    if (known === undefined) missing.set(m.name, { ...m, keys: [...m.keys] });
    else known.keys.push(...m.keys);
  }
  for (const ref of secretReferences(config)) {
    if (Object.hasOwn(resolved, ref.name)) continue;
    const known = missing.get(ref.name);
    if (known !== undefined) {
      known.keys.push(ref.key);
      continue;
    }
    const value = source.resolve(ref.name);
    if (value !== undefined) resolved[ref.name] = value;
    else missing.set(ref.name, { name: ref.name, keys: [ref.key], lookedIn: source.describe(ref.name) });
  }
  if (missing.size > 0) throw new SecretNotFoundError([...missing.values()]);
  return resolved;
}

function isSecretStore(value: SecretStore | SecretStoreOptions): value is SecretStore {
  return typeof (value as SecretStore).resolve === "function";
}
