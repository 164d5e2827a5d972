import { createHash } from "node:crypto";
import { createChatASignatureAuthenticator } from "../../webhook/auth/chat-a-signature.js";
import { badRequest } from "../../webhook/errors.js";
import {
  isObject,
  type JsonObject,
  makeTicket,
  parseForm,
  parseJsonObject,
  text,
} from "../../webhook/parsing/decode.js";
import { type ApprovalCallback, accepted, ignored, type WebhookSource } from "../../webhook/parsing/source.js";

/** Action ids with this prefix are approval callbacks, never tickets. */
export const APPROVAL_PREFIX = "agent_approval_";

/**
 * Envelope types of the vendor's Events API: sent to a URL configured for
 * event subscriptions, not interactions. Turned into tickets they would
 * start agent runs nobody asked for.
 */
const EVENTS_API_TYPES = new Set(["url_verification", "event_callback", "app_rate_limited"]);

/**
 * Chat A: interactive payloads as JSON or as a form with a
 * `payload` field, and slash commands (a form without `payload`). A payload
 * with any `agent_approval_` action goes to the approval handler only; every
 * other interaction becomes one `slack_interaction` ticket. A payload without
 * a `type`, or an Events API envelope, is acknowledged and ignored.
 */
export function createChatASource(secret: string): WebhookSource {
  return {
    id: "chat_a",
    auth: createChatASignatureAuthenticator(secret),
    mediaTypes: ["application/json", "application/x-www-form-urlencoded"],
    deliveryHeaders: ["idempotency-key"],
    map(body, mediaType) {
      const payload = decode(body, mediaType);
      const actions = Array.isArray(payload.actions) ? payload.actions.filter(isObject) : [];
      const approvals = actions.filter((a) => text(a.action_id).startsWith(APPROVAL_PREFIX));
      if (approvals.length > 0) {
        return { tickets: [], approvals: approvals.map((a) => toApproval(a, payload)) };
      }
      const type = text(payload.type);
      if (type === "") return ignored("payload has no type: not an interaction or a slash command");
      if (EVENTS_API_TYPES.has(type)) {
        return ignored(`${type} is an Events API payload; this route serves interactivity and slash commands only`);
      }
      const first = actions[0];
      const isCommand = type === "slash_command";
      const title = isCommand
        ? `${text(payload.command)} ${text(payload.text)}`.trim()
        : first
          ? text(first.value) || actionText(first) || text(first.action_id)
          : type;
      return accepted([
        makeTicket({
          id: text(payload.trigger_id) || fallbackId(body),
          title,
          description: isCommand ? text(payload.text) : first ? text(first.value) : "",
          ticketType: "slack_interaction",
          source: "chat_a",
          rawEvent: payload,
        }),
      ]);
    },
  };
}

function decode(body: Buffer, mediaType: string): JsonObject {
  if (mediaType === "application/json") return parseJsonObject(body);
  const form = parseForm(body);
  const payload = form.get("payload");
  if (payload !== null) return parseJsonObject(payload, "payload field");
  if (form.has("command")) return { type: "slash_command", ...Object.fromEntries(form) };
  throw badRequest("form body has neither a payload field nor a slash command");
}

function toApproval(action: JsonObject, payload: JsonObject): ApprovalCallback {
  const user = isObject(payload.user) ? payload.user : {};
  const channel = isObject(payload.channel) ? payload.channel : {};
  return {
    source: "chat_a",
    actionId: text(action.action_id),
    value: text(action.value),
    userId: text(user.id),
    username: text(user.username) || text(user.name),
    channelId: text(channel.id),
    triggerId: text(payload.trigger_id),
    responseUrl: text(payload.response_url),
    payload,
  };
}

function actionText(action: JsonObject): string {
  return isObject(action.text) ? text(action.text.text) : "";
}

/** Interactions without a trigger id still get a stable id: a digest of the body. */
function fallbackId(body: Buffer): string {
  return `chat-${createHash("sha256").update(body).digest("hex").slice(0, 16)}`;
}
