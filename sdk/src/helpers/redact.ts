import { maskForms } from "../secret-mask.js";

/** Options of {@link redactUrl}. */
export interface RedactUrlOptions {
  /**
   * The whole URL is a secret (a chat webhook URL whose path is the token):
   * print only its origin, followed by `/[redacted]`.
   */
  secretUrl?: boolean;
  /** Forms of secrets (`secretForms`) to mask wherever they appear. */
  forms?: readonly string[];
}

/**
 * Makes a URL safe to print in an error or a log: drops user info, replaces
 * the query string by `?[redacted]`, masks every given secret value, and
 * with `secretUrl` keeps only the origin. An unparsable URL is reduced to
 * `[unparsable URL]` so nothing leaks through it.
 *
 * @example
 * redactUrl("https://hooks.example.com/services/T0/B0/xyz?token=abc", { secretUrl: true });
 * // "https://hooks.example.com/[redacted]"
 */
export function redactUrl(url: string | URL, options: RedactUrlOptions = {}): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return "[unparsable URL]";
  }
  if (options.secretUrl) return `${parsed.origin}/[redacted]`;
  const query = parsed.search ? "?[redacted]" : "";
  const hostPart = parsed.host ? `${parsed.protocol}//${parsed.host}` : parsed.protocol;
  const text = `${hostPart}${parsed.pathname}${query}`;
  return options.forms ? maskForms(text, options.forms) : text;
}

/**
 * Masks secrets in free text and cuts it to `maxLength` code units (whole
 * code points, so no lone surrogate), adding "…" when cut. Used for body
 * snippets in error messages.
 */
export function snippet(text: string, forms: readonly string[] = [], maxLength = 200): string {
  const masked = maskForms(text.replace(/\s+/g, " ").trim(), forms);
  if (masked.length <= maxLength) return masked;
  let end = maxLength - 1;
  const code = masked.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${masked.slice(0, end)}…`;
}
