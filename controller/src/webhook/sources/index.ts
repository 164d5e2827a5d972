import type { SourceId, WebhookConfig } from "../../config/webhook-config.js";
import { createChatASource } from "../../vendors/chat-a/chat-a-webhook.js";
import { createCodehostASource } from "../../vendors/codehost-a/codehost-a-webhook.js";
import { createCodehostBSource } from "../../vendors/codehost-b/codehost-b-webhook.js";
import { createGenericSource } from "../../vendors/generic/generic-webhook.js";
import { createTrackerBSource } from "../../vendors/tracker-b/tracker-b-webhook.js";
import type { WebhookSource } from "./source.js";

export { APPROVAL_PREFIX } from "../../vendors/chat-a/chat-a-webhook.js";
export * from "./source.js";

/**
 * The sources a configuration enables: code host A, code host B and chat A
 * when their secret is set, generic when `webhook.generic` is set, tracker B
 * with its secret or, without one (spec 5.3 makes it optional), unless the
 * configuration refuses unsigned requests (the controller does, unless
 * `webhook.tracker_b.allow_unsigned: true`). Code host A applies the
 * configuration's issue label rules when it has them.
 */
export function createSources(config: WebhookConfig): Map<SourceId, WebhookSource> {
  const sources = new Map<SourceId, WebhookSource>();
  const { secrets } = config;
  if (secrets.codehost_a) sources.set("codehost_a", createCodehostASource(secrets.codehost_a, config.codehostARules));
  if (secrets.codehost_b) sources.set("codehost_b", createCodehostBSource(secrets.codehost_b));
  const tracker: { secret?: string; targetStateId?: string } = {};
  if (secrets.tracker_b) tracker.secret = secrets.tracker_b;
  if (config.shortcutTargetStateId !== undefined) tracker.targetStateId = config.shortcutTargetStateId;
  if (secrets.tracker_b || config.allowUnsignedTrackerB !== false) sources.set("tracker_b", createTrackerBSource(tracker));
  if (secrets.chat_a) sources.set("chat_a", createChatASource(secrets.chat_a));
  if (config.generic) sources.set("generic", createGenericSource(config.generic));
  return sources;
}
