import { type ChannelError, createChannelError, isChannelError } from "./errors.js";
import { dropRecord, sameLevelAs, writesLevel } from "./log-levels.js";
import type { LogFields, Logger, LogLevel } from "./log-types.js";
import { isPlainObject } from "./runtime/argument-error.js";
import { leaks, maskForms, scrubError, secretForms } from "./secret-mask.js";

// Masking of errors and logger records, on the forms of secret-mask.ts. Apart
// from it because a ChannelError loads @grpc/grpc-js, which the logger alone must not.

function maskChannelError(error: ChannelError, forms: readonly string[]): ChannelError {
  const cause = (error as { cause?: unknown }).cause;
  const scrubbedCause = scrubError(cause, forms);
  if (
    !leaks(error.message, forms)
    && !leaks(error.hint, forms)
    && !leaks(error.stack, forms)
    && scrubbedCause === cause
  )
    return error;
  const masked = createChannelError(error.code, maskForms(error.message, forms), {
    cause: scrubbedCause,
    hint: error.hint === undefined ? undefined : maskForms(error.hint, forms),
    retryAfterMs: error.retryAfterMs,
  });
  if (error.stack) masked.stack = maskForms(error.stack, forms);
  return masked;
}

/**
 * Returns `error` with every secret value masked in its message, hint and
 * cause chain (a plugin's error, or its stderr tail, may quote a token);
 * the same error when nothing needed masking. Non-ChannelErrors pass through.
 */
export function maskError<E>(error: E, secrets: Iterable<string>): E | ChannelError {
  if (!isChannelError(error)) return error;
  return maskChannelError(error, secretForms(secrets));
}

/**
 * `value` with every string masked, through arrays, plain objects and errors.
 * Any other object becomes what a JSON logger would print of it, masked: its
 * `toJSON()` (a URL's text, a Date's), a Map's entries and a Set's values as
 * arrays, else its own enumerable fields; a user's logger would otherwise
 * serialise a secret the masking never saw (a webhook URL object, say).
 */
function maskValue(value: unknown, forms: readonly string[], depth: number): unknown {
  if (typeof value === "string") return maskForms(value, forms);
  if (depth > 8 || typeof value !== "object" || value === null) return value;
  if (isChannelError(value)) return maskChannelError(value, forms);
  if (value instanceof Error) return scrubError(value, forms);
  if (Array.isArray(value)) return value.map((item: unknown) => maskValue(item, forms, depth + 1));
  if (isPlainObject(value)) return maskFields(value, forms, depth);
  return maskValue(asJsonSees(value), forms, depth + 1);
}

function maskFields(value: Record<string, unknown>, forms: readonly string[], depth: number): LogFields {
  const out: LogFields = {};
  for (const key of Object.keys(value)) out[key] = maskValue(value[key], forms, depth + 1);
  return out;
}

/** What JSON.stringify (and a JSON logger) would print of an object that is not plain, as plain values. */
function asJsonSees(value: object): unknown {
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") {
    try {
      return toJSON.call(value);
    } catch {
      return "[unserializable]";
    }
  }
  if (value instanceof Map) return [...value];
  if (value instanceof Set) return [...value];
  return { ...value };
}

/**
 * A logger that masks `secrets` in every message and field (strings in
 * nested objects and arrays, errors with their hints and causes) before
 * `inner` sees them: a logger given by a user cannot be trusted to mask what
 * it never knew was secret. Returns `inner` itself when nothing is to be
 * masked.
 */
export function createMaskingLogger(inner: Logger, secrets: Iterable<string>): Logger {
  const forms = secretForms(secrets);
  if (forms.length === 0) return inner;
  return wrapMasking(inner, forms);
}

function wrapMasking(inner: Logger, forms: readonly string[]): Logger {
  const fields = (f: LogFields | undefined) => (f === undefined ? undefined : (maskValue(f, forms, 0) as LogFields));
  // Nothing is masked for a level the inner logger is known to drop (an SDK
  // logger's debug at level info): the record would be thrown away anyway.
  const at = (level: LogLevel) =>
    writesLevel(inner, level)
      ? // Called on the logger itself: class-based loggers need their `this`.
        (message: string, f?: LogFields) => inner[level](maskForms(message, forms), fields(f))
      : dropRecord;
  return sameLevelAs(
    {
      debug: at("debug"),
      info: at("info"),
      warn: at("warn"),
      error: at("error"),
      child: (f: LogFields) => wrapMasking(inner.child(fields(f) ?? {}), forms),
    },
    inner,
  );
}
