/** Prefix of the environment variables that hold named secrets. */
export const SECRET_ENV_PREFIX = "ERRAND_SECRET_";

/**
 * The environment variable that holds the secret `name`: `ERRAND_SECRET_`
 * and the name upper-cased, each character other than a letter or digit
 * turned into `_` (`chat-a-token` → `ERRAND_SECRET_CHAT_A_TOKEN`).
 */
export function secretEnvName(name: string): string {
  return SECRET_ENV_PREFIX + name.toUpperCase().replace(/[^A-Z0-9]/g, "_");
}
