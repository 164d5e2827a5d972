import { createTokenAuthenticator } from "../../webhook/auth/token.js";
import { badRequest } from "../../webhook/errors.js";
import { isObject, labelNames, makeTicket, parseJsonObject, requireId, text } from "../../webhook/parsing/decode.js";
import { accepted, ignored, type WebhookSource } from "../../webhook/parsing/source.js";

const KINDS = new Set(["issue", "merge_request"]);

/**
 * Code host B: `issue` and `merge_request` events become tickets
 * of that type. The token header is checked before the body is read.
 */
export function createCodehostBSource(secret: string): WebhookSource {
  return {
    id: "codehost_b",
    auth: createTokenAuthenticator(secret, ["x-hostb-token", "x-gitlab-token"]),
    mediaTypes: ["application/json"],
    deliveryHeaders: ["x-hostb-event-uuid", "x-gitlab-event-uuid", "idempotency-key"],
    map(body) {
      const payload = parseJsonObject(body);
      // Some of the vendor's events (group member hooks, for one) carry event_name and no object_kind:
      // acknowledged like any other kind not ingested, since repeated 4xx answers get a hook disabled.
      if (typeof payload.object_kind !== "string")
        return ignored(`event without object_kind${eventName(payload.event_name)} is not ingested`);
      const kind = payload.object_kind;
      if (!KINDS.has(kind)) return ignored(`object_kind ${JSON.stringify(kind)} is not ingested`);
      const attributes = payload.object_attributes;
      if (!isObject(attributes)) throw badRequest(`${kind} event lacks object_attributes`);
      const project = isObject(payload.project) ? payload.project : {};
      return accepted([
        makeTicket({
          id: requireId(attributes.iid, "object_attributes.iid"),
          title: text(attributes.title),
          description: text(attributes.description),
          ticketType: kind,
          repoUrl: text(project.web_url),
          externalUrl: text(attributes.url),
          labels: labelNames(payload.labels),
          source: "codehost_b",
          rawEvent: payload,
        }),
      ]);
    },
  };
}

function eventName(value: unknown): string {
  return typeof value === "string" && value !== "" ? ` (event_name ${JSON.stringify(value)})` : "";
}
