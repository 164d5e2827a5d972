import type { SourceId } from "../config/webhook-config.js";
import type { WebhookSource } from "../webhook/parsing/source.js";
import type { WebhookConfig } from "../webhook/webhook-schema.js";
import { createChatASource } from "./chat-a/chat-a-webhook.js";
import { createCodehostASource } from "./codehost-a/codehost-a-webhook.js";
import { createCodehostBSource } from "./codehost-b/codehost-b-webhook.js";
import { createGenericSource } from "./generic/generic-webhook.js";
import { createTrackerBSource } from "./tracker-b/tracker-b-webhook.js";

/** Builds a vendor's webhook parser from the configuration; undefined when the configuration leaves its route off. */
export type WebhookParserFactory = (config: WebhookConfig) => WebhookSource | undefined;

/**
 * One webhook parser per source id of vendors/registry.ts (the Record type
 * makes a missing one a compile error). Code host A, code host B and chat A
 * are on when their secret is set, generic when `webhook.generic` is set;
 * tracker B with its secret or, without one (its signature is optional),
 * unless the configuration refuses unsigned requests (the controller does,
 * unless `webhook.tracker_b.allow_unsigned: true`). Code host A applies the
 * configuration's issue label rules when it has them, and the trigger rules
 * of `repositories.codehost_a` when it is set.
 */
export const WEBHOOK_PARSERS: Readonly<Record<SourceId, WebhookParserFactory>> = {
  codehost_a: ({ secrets, codehostARules, codehostATriggers }) =>
    secrets.codehost_a ? createCodehostASource(secrets.codehost_a, codehostARules, codehostATriggers) : undefined,
  codehost_b: ({ secrets }) => (secrets.codehost_b ? createCodehostBSource(secrets.codehost_b) : undefined),
  tracker_b: ({ secrets, shortcutTargetStateId, allowUnsignedTrackerB }) => {
    if (!secrets.tracker_b && allowUnsignedTrackerB === false) return undefined;
    const tracker: { secret?: string; targetStateId?: string } = {};
    if (secrets.tracker_b) tracker.secret = secrets.tracker_b;
    if (shortcutTargetStateId !== undefined) tracker.targetStateId = shortcutTargetStateId;
    return createTrackerBSource(tracker);
  },
  chat_a: ({ secrets }) => (secrets.chat_a ? createChatASource(secrets.chat_a) : undefined),
  generic: ({ generic }) => (generic ? createGenericSource(generic) : undefined),
};
