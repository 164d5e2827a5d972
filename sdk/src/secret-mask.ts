/**
 * Secret masking, in one place: the logger, the host's logger guard, the
 * errors a plugin sends and a host returns, and the HTTP client's messages
 * all mask the same forms of a secret the same way. The text part is here,
 * free of gRPC so that the logger entry loads none; errors and loggers are
 * masked by secret-mask-errors.ts with these same forms.
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
  const copy = new Error(
    maskForms(error.message, forms),
    scrubbedCause === undefined ? undefined : { cause: scrubbedCause },
  );
  copy.name = error.name;
  copy.stack = error.stack === undefined ? undefined : maskForms(error.stack, forms);
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) (copy as { code?: unknown }).code = code;
  return copy;
}

/** True when any of `forms` occurs in `text`. */
export function leaks(text: string | undefined, forms: readonly string[]): boolean {
  return text !== undefined && forms.some((form) => text.includes(form));
}
