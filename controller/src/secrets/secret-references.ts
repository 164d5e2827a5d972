import type { ControllerConfig } from "../config/controller-config.js";

/** A secret name and the configuration key that names it. */
export interface SecretReference {
  name: string;
  /** Dotted key, e.g. `notifications.channels[0].config.token_secret`. */
  key: string;
}

/**
 * Every secret a configuration names, in file order: the channels' `*_secret`
 * keys, the engines' `auth.api_key_secret`, `ticketing.config.token_secret`
 * and `store.url_secret`. (Webhook signing secrets are resolved while the
 * configuration is read: the webhook settings carry their values.)
 */
export function secretReferences(config: ControllerConfig): SecretReference[] {
  const refs: SecretReference[] = [];
  for (const channel of config.notifications.channels) {
    collectSecretKeys(channel.config, `notifications.channels[${channel.index}].config`, refs);
  }
  if (config.ticketing?.tokenSecret !== undefined) refs.push({ name: config.ticketing.tokenSecret, key: "ticketing.config.token_secret" });
  for (const engine of Object.values(config.engines.byName)) {
    if (engine.apiKeySecret !== undefined) refs.push({ name: engine.apiKeySecret, key: `engines.${engine.name}.auth.api_key_secret` });
  }
  if (config.store.backend === "postgres") refs.push({ name: config.store.urlSecret, key: "store.url_secret" });
  return refs;
}

/** Adds the string value of every key ending in `_secret`, at any depth of `value`. */
export function collectSecretKeys(value: unknown, key: string, refs: SecretReference[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => collectSecretKeys(item, `${key}[${i}]`, refs));
  } else if (typeof value === "object" && value !== null) {
    for (const [name, inner] of Object.entries(value)) {
      if (name.endsWith("_secret") && typeof inner === "string") refs.push({ name: inner, key: `${key}.${name}` });
      else collectSecretKeys(inner, `${key}.${name}`, refs);
    }
  }
}
