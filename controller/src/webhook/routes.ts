import type { SourceId } from "../config/webhook-config.js";
import { WEBHOOK_VENDORS } from "../vendors/registry.js";

/** Base path of every webhook route (fixed). */
export const PATH_PREFIX = "/webhooks";

/** Route path to source: the spec's neutral paths and the real vendors' names, from vendors/registry.ts. */
export const ROUTES: ReadonlyMap<string, SourceId> = new Map<string, SourceId>(
  WEBHOOK_VENDORS.flatMap(({ id, webhook }) => [
    [`${PATH_PREFIX}/${webhook.route}`, id],
    ...("alias" in webhook ? [[`${PATH_PREFIX}/${webhook.alias}`, id] as const] : []),
  ]),
);

/** What to set so that a source is served; sent in the 404 for a source that is off. */
export const ENABLE_HINT = Object.fromEntries(WEBHOOK_VENDORS.map((v) => [v.id, v.webhook.enableHint])) as Readonly<
  Record<SourceId, string>
>;

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
