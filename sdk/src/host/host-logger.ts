import { type ChannelError, createChannelError, isChannelError } from "../errors.js";
import { scrubError, secretForms } from "../helpers/scrub.js";
import { type LogFields, type Logger, redactSecrets } from "../logger.js";
import { isPlainObject } from "../runtime/argument-error.js";

type Level = "debug" | "info" | "warn" | "error";

let warned = false;

// A host must survive its own logger: a throw here would surface in a
// readline or promise callback, where nothing catches it and Node exits.
function reportOnce(error: unknown) {
  if (warned) return;
  warned = true;
  try {
    process.emitWarning(`the logger given to the channel host threw; its records are being dropped: ${error instanceof Error ? error.message : String(error)}`, "ErrandLoggerWarning");
  } catch {
    // nothing left to report to
  }
}

function maskValue(value: unknown, forms: readonly string[], depth: number): unknown {
  if (typeof value === "string") return redactSecrets(value, forms);
  if (depth > 8 || typeof value !== "object" || value === null) return value;
  if (value instanceof Error) return scrubError(value, forms);
  if (Array.isArray(value)) return value.map((item: unknown) => maskValue(item, forms, depth + 1));
  if (!isPlainObject(value)) return value;
  const out: LogFields = {};
  for (const key of Object.keys(value)) out[key] = maskValue(value[key], forms, depth + 1);
  return out;
}

/**
 * Wraps a logger for the host side: methods are called on the logger itself
 * (class-based loggers need their `this`), a throw is swallowed (reported
 * once as a process warning), and with `secrets` every message and string
 * field is masked before the logger sees it, since a user's logger cannot be
 * trusted to mask what it never knew was secret.
 */
export function guardLogger(inner: Logger, secrets: readonly string[] = []): Logger {
  const forms = secretForms(secrets);
  const mask = forms.length === 0 ? undefined : forms;
  const call = (level: Level, message: string, fields?: LogFields) => {
    try {
      if (mask) inner[level](redactSecrets(message, mask), fields === undefined ? undefined : (maskValue(fields, mask, 0) as LogFields));
      else inner[level](message, fields);
    } catch (error) {
      reportOnce(error);
    }
  };
  return {
    debug: (message, fields) => call("debug", message, fields),
    info: (message, fields) => call("info", message, fields),
    warn: (message, fields) => call("warn", message, fields),
    error: (message, fields) => call("error", message, fields),
    child: (fields) => {
      try {
        return guardLogger(inner.child(mask ? (maskValue(fields, mask, 0) as LogFields) : fields), secrets);
      } catch (error) {
        reportOnce(error);
        return guardLogger(inner, secrets);
      }
    },
  };
}

/**
 * Returns `error` with every secret value masked in its message, hint and
 * cause chain (a plugin's error, or its stderr tail, may quote a token);
 * the same error when nothing needed masking. Non-ChannelErrors pass through.
 */
export function maskError<E>(error: E, secrets: readonly string[]): E | ChannelError {
  if (!isChannelError(error)) return error;
  const forms = secretForms(secrets);
  const leaks = (text: string | undefined) => text !== undefined && forms.some((form) => text.includes(form));
  const cause = (error as { cause?: unknown }).cause;
  const scrubbedCause = scrubError(cause, forms);
  if (!leaks(error.message) && !leaks(error.hint) && scrubbedCause === cause) return error;
  const masked = createChannelError(error.code, redactSecrets(error.message, forms), {
    cause: scrubbedCause,
    hint: error.hint === undefined ? undefined : redactSecrets(error.hint, forms),
    retryAfterMs: error.retryAfterMs,
  });
  if (error.stack) masked.stack = redactSecrets(error.stack, forms);
  return masked;
}
