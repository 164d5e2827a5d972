import { type ChannelError, createChannelError, isChannelError } from "./errors.js";
import type { LogFields, Logger } from "./log-types.js";
import { isPlainObject } from "./runtime/argument-error.js";

/**
 * Secret masking, in one place: the logger, the host's logger guard, the
 * errors a plugin sends and a host returns, and the HTTP client's messages
 * all mask the same forms of a secret the same way.
 */

/** What a masked secret reads as. */
export const REDACTED = "[redacted]";

/** Shorter values would mask ordinary words; real secrets are longer. */
const MIN_SECRET_LENGTH = 4;

/**
 * Every form a secret takes in text: as is, JSON-escaped (quoted in a body or
 * a log line) and percent-encoded (in a URL). Values under 4 characters are
 * skipped. Longest first, so a secret that contains another is masked whole.
 */
export function secretForms(secrets: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) continue;
    out.add(secret);
    out.add(JSON.stringify(secret).slice(1, -1));
    try {
      out.add(encodeURIComponent(secret));
      out.add(encodeURI(secret));
    } catch {
      // A lone surrogate cannot be percent-encoded, so it never is in a URL.
    }
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/**
 * The forms to look for in a JSON line, where every form of the text is
 * JSON-escaped once more. Masking only these keeps the line valid JSON: a
 * raw form ending in `\` would otherwise swallow half of an escape.
 */
export function jsonLineForms(forms: readonly string[]): string[] {
  return [...new Set(forms.map((form) => JSON.stringify(form).slice(1, -1)))].sort((a, b) => b.length - a.length);
}

/** Replaces every one of `forms` (from {@link secretForms}) in `text` by `[redacted]`. */
export function maskForms(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

/** Masks every form of every secret value found in `text` (see {@link secretForms}). */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  return maskForms(text, secretForms(secrets));
}

/**
 * A function that masks every form of `secrets` in a text, the forms worked
 * out once: for a stream of lines (an agent run's log) where the secrets are
 * known ahead.
 */
export function createSecretMask(secrets: Iterable<string>): (text: string) => string {
  const forms = secretForms(secrets);
  return forms.length === 0 ? (text) => text : (text) => maskForms(text, forms);
}

/**
 * Returns `error` itself when no form occurs in its message, stack or cause
 * chain; otherwise a plain copy (same name and `code`) whose message, stack
 * and causes are masked. Used on third-party errors kept as `cause`.
 */
export function scrubError(error: unknown, forms: readonly string[], depth = 0): unknown {
  if (!(error instanceof Error) || forms.length === 0 || depth > 5) return error;
  const cause = (error as { cause?: unknown }).cause;
  const scrubbedCause = scrubError(cause, forms, depth + 1);
  if (!leaks(error.message, forms) && !leaks(error.stack, forms) && scrubbedCause === cause) return error;
  const copy = new Error(maskForms(error.message, forms), scrubbedCause === undefined ? undefined : { cause: scrubbedCause });
  copy.name = error.name;
  copy.stack = error.stack === undefined ? undefined : maskForms(error.stack, forms);
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) (copy as { code?: unknown }).code = code;
  return copy;
}

function leaks(text: string | undefined, forms: readonly string[]): boolean {
  return text !== undefined && forms.some((form) => text.includes(form));
}

function maskChannelError(error: ChannelError, forms: readonly string[]): ChannelError {
  const cause = (error as { cause?: unknown }).cause;
  const scrubbedCause = scrubError(cause, forms);
  if (!leaks(error.message, forms) && !leaks(error.hint, forms) && !leaks(error.stack, forms) && scrubbedCause === cause) return error;
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

/** `value` with every string masked, through arrays, plain objects and errors. */
function maskValue(value: unknown, forms: readonly string[], depth: number): unknown {
  if (typeof value === "string") return maskForms(value, forms);
  if (depth > 8 || typeof value !== "object" || value === null) return value;
  if (isChannelError(value)) return maskChannelError(value, forms);
  if (value instanceof Error) return scrubError(value, forms);
  if (Array.isArray(value)) return value.map((item: unknown) => maskValue(item, forms, depth + 1));
  if (!isPlainObject(value)) return value;
  const out: LogFields = {};
  for (const key of Object.keys(value)) out[key] = maskValue(value[key], forms, depth + 1);
  return out;
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
  // Methods are called on the logger itself: class-based loggers need their `this`.
  return {
    debug: (message, f) => inner.debug(maskForms(message, forms), fields(f)),
    info: (message, f) => inner.info(maskForms(message, forms), fields(f)),
    warn: (message, f) => inner.warn(maskForms(message, forms), fields(f)),
    error: (message, f) => inner.error(maskForms(message, forms), fields(f)),
    child: (f) => wrapMasking(inner.child(fields(f) ?? {}), forms),
  };
}
