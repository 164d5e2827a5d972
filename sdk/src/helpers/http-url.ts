import type { IncomingHttpHeaders } from "node:http";
import { InvalidArgumentError } from "../errors.js";
import type { HttpRequest } from "./http-types.js";
import { redactUrl } from "./redact.js";
import { parseRetryAfter, parseRetryAfterBody } from "./retry-after.js";

/** The request's URL: resolved against `baseUrl`, http(s) only, with `query` appended. */
export function resolveUrl(req: HttpRequest, baseUrl: string | undefined): URL {
  let url: URL;
  try {
    url = baseUrl ? new URL(req.url, baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`) : new URL(req.url);
  } catch {
    throw new InvalidArgumentError(`the request URL is not valid (${redactUrl(req.url)})`, {
      hint: baseUrl ? "check baseUrl" : "give an absolute http(s) URL or set baseUrl",
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidArgumentError(`the request URL must use http or https, not ${url.protocol}`);
  }
  for (const [name, value] of Object.entries(req.query ?? {})) {
    if (value !== undefined) url.searchParams.append(name, String(value));
  }
  return url;
}

/**
 * Parts of a secret URL that may be echoed on their own: path segments and
 * query values that look like ids or tokens (8+ characters and not a plain
 * word such as "webhooks").
 */
export function secretParts(url: URL): string[] {
  const parts = [...url.pathname.split("/").map(safeDecode), ...url.searchParams.values()];
  return parts.filter((part) => part.length >= 8 && !/^[a-z-]+$/.test(part));
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * A 429's delay: the JSON body's `retry_after`, else `Retry-After`, else
 * `X-RateLimit-Reset-After` (seconds). The body comes first because
 * platforms that send both give it in float seconds (`0.337`) and round the
 * header up to whole seconds (`1`).
 */
export function retryAfterOf(headers: IncomingHttpHeaders, json: unknown): number | undefined {
  return (
    parseRetryAfterBody(json)
    ?? parseRetryAfter(headers["retry-after"])
    ?? parseRetryAfter(headers["x-ratelimit-reset-after"])
  );
}
