import { SOURCE_IDS, type SourceId } from "../../config/webhook-config.js";
import { WEBHOOK_PARSERS } from "../../vendors/webhook-parsers.js";
import type { WebhookConfig } from "../webhook-schema.js";
import type { WebhookSource } from "./source.js";

export { APPROVAL_PREFIX } from "../../vendors/chat-a/chat-a-webhook.js";
export * from "./source.js";

/**
 * The sources a configuration enables, in route-table order: each vendor's
 * parser (vendors/webhook-parsers.ts) decides from the configuration whether
 * its route is on.
 */
export function createSources(config: WebhookConfig): Map<SourceId, WebhookSource> {
  const sources = new Map<SourceId, WebhookSource>();
  for (const id of SOURCE_IDS) {
    const source = WEBHOOK_PARSERS[id](config);
    if (source !== undefined) sources.set(id, source);
  }
  return sources;
}
