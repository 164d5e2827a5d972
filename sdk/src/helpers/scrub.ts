import { redactSecrets } from "../logger.js";

/** Every form a secret may take in a URL or a body: as is and percent-encoded. */
export function secretForms(secrets: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    out.add(secret);
    out.add(encodeURIComponent(secret));
    out.add(encodeURI(secret));
  }
  // Longest first, so a secret that contains another is masked whole.
  return [...out].sort((a, b) => b.length - a.length);
}

/**
 * Returns `error` itself when no secret occurs in its message, stack or
 * cause chain; otherwise a plain copy (same name and `code`) whose message,
 * stack and causes are masked. Used on third-party errors kept as `cause`.
 */
export function scrubError(error: unknown, secrets: readonly string[], depth = 0): unknown {
  if (!(error instanceof Error) || secrets.length === 0 || depth > 5) return error;
  const cause = (error as { cause?: unknown }).cause;
  const scrubbedCause = scrubError(cause, secrets, depth + 1);
  const leaks = (text: string | undefined) => text !== undefined && secrets.some((s) => text.includes(s));
  if (!leaks(error.message) && !leaks(error.stack) && scrubbedCause === cause) return error;
  const copy = new Error(
    redactSecrets(error.message, secrets),
    scrubbedCause === undefined ? undefined : { cause: scrubbedCause },
  );
  copy.name = error.name;
  copy.stack = error.stack === undefined ? undefined : redactSecrets(error.stack, secrets);
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) (copy as { code?: unknown }).code = code;
  return copy;
}
