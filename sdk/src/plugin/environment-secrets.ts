import type { ChannelConfig } from "../channel.js";
import type { Logger } from "../logger.js";

function parseObject(raw: string | undefined): Record<string, unknown> | undefined {
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported by the callers
  }
  return undefined;
}

/**
 * Secrets a host may pass through the environment instead of the Handshake
 * (a go-plugin host never calls Handshake): `ERRAND_CHANNEL_SECRETS` holds a
 * JSON object of secret name to value. Values that are not strings are dropped.
 */
export function readEnvironmentSecrets(env: NodeJS.ProcessEnv): Record<string, string> {
  const parsed = parseObject(env.ERRAND_CHANNEL_SECRETS);
  if (env.ERRAND_CHANNEL_SECRETS && !parsed) {
    process.stderr.write("ERRAND_CHANNEL_SECRETS is not a JSON object of secret name to value; ignoring it\n");
  }
  const secrets: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed ?? {})) {
    if (typeof value === "string") secrets[name] = value;
  }
  return secrets;
}

/** The channel config from `ERRAND_CHANNEL_CONFIG` (a JSON object), used when no Handshake delivers one. */
export function readEnvironmentConfig(env: NodeJS.ProcessEnv, logger: Logger): ChannelConfig {
  const parsed = parseObject(env.ERRAND_CHANNEL_CONFIG);
  if (env.ERRAND_CHANNEL_CONFIG && !parsed) {
    logger.warn("ERRAND_CHANNEL_CONFIG is not a JSON object; using an empty config");
  }
  return parsed ?? {};
}
