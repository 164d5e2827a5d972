import type { Ticket } from "@errand/channel-sdk";
import { type Authenticator, openAuthenticator } from "../../webhook/auth/authenticator.js";
import { createHmacAuthenticator } from "../../webhook/auth/hmac.js";
import { badRequest } from "../../webhook/errors.js";
import { isObject, makeTicket, parseJsonObject, requireId, text } from "../../webhook/parsing/decode.js";
import { accepted, ignored, type WebhookSource } from "../../webhook/parsing/source.js";

/** Options of {@link createTrackerBSource}. */
export interface TrackerBOptions {
  /** Signing secret; without it every well-formed request is accepted. */
  secret?: string;
  /** `webhook.shortcut_target_state_id`: forward only updates that move a story into this state. */
  targetStateId?: string;
}

/**
 * Tracker B: each `story` `update` action becomes an `issue`
 * ticket; with a target state, only updates whose workflow_state_id changed
 * to it. One delivery may carry several actions and so several tickets.
 */
export function createTrackerBSource(options: TrackerBOptions): WebhookSource {
  const auth: Authenticator = options.secret
    ? createHmacAuthenticator({
        secret: options.secret,
        headers: ["x-tracker-signature", "payload-signature"],
        prefix: "optional",
      })
    : openAuthenticator;
  return {
    id: "tracker_b",
    auth,
    mediaTypes: ["application/json"],
    deliveryHeaders: ["idempotency-key"],
    map(body) {
      const payload = parseJsonObject(body);
      if (!Array.isArray(payload.actions)) throw badRequest("body lacks the actions array");
      const tickets: Ticket[] = [];
      for (const action of payload.actions) {
        if (!isObject(action) || action.entity_type !== "story" || action.action !== "update") continue;
        const changes = isObject(action.changes) ? action.changes : {};
        if (options.targetStateId !== undefined && !movedTo(changes.workflow_state_id, options.targetStateId)) continue;
        const description = isObject(changes.description) ? text(changes.description.new) : "";
        tickets.push(
          makeTicket({
            id: requireId(action.id, "actions[].id"),
            title: text(action.name),
            description,
            ticketType: "issue",
            externalUrl: text(action.app_url),
            source: "tracker_b",
            rawEvent: action,
          }),
        );
      }
      if (tickets.length > 0) return accepted(tickets);
      return ignored(
        options.targetStateId === undefined
          ? "no story update in actions"
          : `no story update moved to workflow state ${options.targetStateId}`,
      );
    },
  };
}

function movedTo(change: unknown, target: string): boolean {
  return isObject(change) && change.new !== undefined && change.new !== null && String(change.new) === target;
}
