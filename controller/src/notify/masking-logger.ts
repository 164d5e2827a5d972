import { type LogFields, type Logger, redactSecrets } from "@errand/channel-sdk";

function mask(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === "string") return redactSecrets(value, secrets);
  if (depth > 8 || typeof value !== "object" || value === null) return value;
  if (value instanceof Error) {
    const { code, hint } = value as { code?: unknown; hint?: unknown };
    return { name: value.name, message: redactSecrets(value.message, secrets), code, hint: typeof hint === "string" ? redactSecrets(hint, secrets) : undefined };
  }
  if (Array.isArray(value)) return value.map((item) => mask(item, secrets, depth + 1));
  const out: LogFields = {};
  for (const [key, item] of Object.entries(value)) out[key] = mask(item, secrets, depth + 1);
  return out;
}

/**
 * A logger that masks `secrets` in every message and field before `inner`
 * sees them. connectChannel masks a plugin's records itself; this covers the
 * built-in channels (loadChannel masks only its default logger) and the
 * notifier's own lines, which quote channel errors.
 */
export function createMaskingLogger(inner: Logger, secrets: readonly string[]): Logger {
  const values = secrets.filter((s) => s.length > 0);
  if (values.length === 0) return inner;
  const fields = (f: LogFields | undefined) => (f === undefined ? undefined : (mask(f, values, 0) as LogFields));
  return {
    debug: (message, f) => inner.debug(redactSecrets(message, values), fields(f)),
    info: (message, f) => inner.info(redactSecrets(message, values), fields(f)),
    warn: (message, f) => inner.warn(redactSecrets(message, values), fields(f)),
    error: (message, f) => inner.error(redactSecrets(message, values), fields(f)),
    child: (f) => createMaskingLogger(inner.child(fields(f) ?? {}), values),
  };
}
