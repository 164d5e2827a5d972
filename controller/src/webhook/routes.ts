import type { SourceId } from "../config/webhook-config.js";

/** Base path of every webhook route (spec 2.5: fixed). */
export const PATH_PREFIX = "/webhooks";

/** Route path to source: the spec's neutral paths and the real vendors' names. */
export const ROUTES: ReadonlyMap<string, SourceId> = new Map<string, SourceId>([
  ["/webhooks/codehost-a", "codehost_a"],
  ["/webhooks/github", "codehost_a"],
  ["/webhooks/codehost-b", "codehost_b"],
  ["/webhooks/gitlab", "codehost_b"],
  ["/webhooks/tracker", "tracker_b"],
  ["/webhooks/shortcut", "tracker_b"],
  ["/webhooks/chat", "chat_a"],
  ["/webhooks/slack", "chat_a"],
  ["/webhooks/generic", "generic"],
]);

/** What to set so that a source is served; sent in the 404 for a source that is off. */
export const ENABLE_HINT: Readonly<Record<SourceId, string>> = {
  codehost_a: "set webhook.secrets.codehost_a (or webhook.secrets.github)",
  codehost_b: "set webhook.secrets.codehost_b (or webhook.secrets.gitlab)",
  tracker_b: "set webhook.secrets.tracker_b (or webhook.secrets.shortcut), or webhook.tracker_b.allow_unsigned: true to take unsigned requests",
  chat_a: "set webhook.secrets.chat_a (or webhook.secrets.slack)",
  generic: "set webhook.generic (auth_mode, secret and optionally field_mapping)",
};

const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/**
 * The path of a request URL without its query string and without one
 * trailing slash, so `/webhooks/github/?x=1` routes like `/webhooks/github`.
 * The absolute form some proxies forward (`http://host/webhooks/github`,
 * RFC 9112 3.2.2) routes by its path too.
 */
export function routePath(url: string | undefined): string {
  if (url === undefined) return "/";
  if (url.charCodeAt(0) !== 47 /* "/" */) {
    const authority = ABSOLUTE_FORM.exec(url);
    if (authority !== null) url = url.slice(authority[0].length) || "/";
  }
  const q = url.indexOf("?");
  let path = q === -1 ? url : url.slice(0, q);
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  return path;
}
