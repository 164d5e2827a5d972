import type { ChannelConfig } from "../channel.js";
import { PluginEnvironmentError } from "./plugin-env.js";

/**
 * The JSON object in `env[name]`, or undefined when unset or empty. Anything
 * else is a start-up error: a plugin that ran on without the config or the
 * secrets its host meant to give it would fail later, far from the cause.
 */
function parseObject(env: NodeJS.ProcessEnv, name: string, example: string): Record<string, unknown> | undefined {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new PluginEnvironmentError(
      `${name} is not valid JSON (${(error as Error).message}); set it to a JSON object such as ${example}, or leave it unset`,
    );
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    const kind = parsed === null ? "null" : Array.isArray(parsed) ? "an array" : `a ${typeof parsed}`;
    throw new PluginEnvironmentError(
      `${name} is ${kind}, not a JSON object; set it to a JSON object such as ${example}, or leave it unset`,
    );
  }
  return parsed as Record<string, unknown>;
}

/**
 * Secrets a host may pass through the environment instead of the Handshake
 * (a go-plugin host never calls Handshake): `ERRAND_CHANNEL_SECRETS` holds a
 * JSON object of secret name to value.
 *
 * @throws PluginEnvironmentError when it is not a JSON object of strings (the message names the variable and the key, never a value).
 */
export function readEnvironmentSecrets(env: NodeJS.ProcessEnv): Record<string, string> {
  const parsed = parseObject(env, "ERRAND_CHANNEL_SECRETS", '{"token":"..."}') ?? {};
  const secrets: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== "string") {
      const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
      throw new PluginEnvironmentError(
        `ERRAND_CHANNEL_SECRETS: the secret ${JSON.stringify(name)} is ${kind}, not a string; give every secret as a JSON string`,
      );
    }
    secrets[name] = value;
  }
  return secrets;
}

/**
 * The channel config from `ERRAND_CHANNEL_CONFIG` (a JSON object), used when
 * no Handshake delivers one; `{}` when unset.
 *
 * @throws PluginEnvironmentError when it is set but not a JSON object.
 */
export function readEnvironmentConfig(env: NodeJS.ProcessEnv): ChannelConfig {
  return parseObject(env, "ERRAND_CHANNEL_CONFIG", '{"channel_id":"C123"}') ?? {};
}
