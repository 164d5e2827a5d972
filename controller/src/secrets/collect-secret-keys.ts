/** A secret name and the configuration key that names it. */
export interface SecretReference {
  name: string;
  /** Dotted key, e.g. `notifications.channels[0].config.token_secret`. */
  key: string;
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
