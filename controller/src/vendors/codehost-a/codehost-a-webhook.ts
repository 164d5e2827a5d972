import { firstHeader } from "../../webhook/auth/authenticator.js";
import { createHmacAuthenticator } from "../../webhook/auth/hmac.js";
import { badRequest } from "../../webhook/errors.js";
import {
  isObject,
  type JsonObject,
  labelNames,
  makeTicket,
  parseForm,
  parseJsonObject,
  requireId,
  text,
} from "../../webhook/parsing/decode.js";
import { accepted, ignored, type SourceOutcome, type WebhookSource } from "../../webhook/parsing/source.js";
import { type CodehostAIssueRules, labelSkipReason } from "./codehost-a-rules.js";
import { type CodehostATriggers, triggerSkipReason } from "./codehost-a-triggers.js";
import { mapReviewEvent } from "./review-events.js";

const EVENT_HEADERS = ["x-hosta-event", "x-github-event"] as const;
const INGESTED_ACTIONS = new Set(["opened", "labeled"]);

/**
 * Code host A: without `triggers`, `issues` events with action `opened` or
 * `labeled` become `issue` tickets. With `triggers` (`repositories.codehost_a`
 * is set), only the trigger rules start runs: the trigger label added, an
 * assignment to the bot login, or a new issue comment mentioning the phrase
 * by a user with write access; every other event is acknowledged as ignored,
 * with the reason. The vendor's form-encoded variant (`payload=<json>`) is
 * accepted too, since the signature covers the raw form body either way.
 * With `rules` (the controller's `ticketing.config` for codehost_a), an issue
 * the rules skip is acknowledged as ignored, as the poller would skip it.
 */
export function createCodehostASource(
  secret: string,
  rules?: CodehostAIssueRules,
  triggers?: CodehostATriggers,
): WebhookSource {
  return {
    id: "codehost_a",
    auth: createHmacAuthenticator({ secret, headers: ["x-hub-signature-256"], prefix: "required" }),
    mediaTypes: ["application/json", "application/x-www-form-urlencoded"],
    deliveryHeaders: ["x-hosta-delivery", "x-github-delivery", "idempotency-key"],
    map(body, mediaType, headers) {
      const event = firstHeader(headers, EVENT_HEADERS);
      if (event === undefined) throw badRequest("missing event header X-HostA-Event or X-GitHub-Event");
      const review = mapReviewEvent(event, () => decode(body, mediaType));
      if (review !== undefined) return review;
      if (triggers === undefined && event !== "issues")
        return ignored(`event ${JSON.stringify(event)} is not ingested`);
      const payload = decode(body, mediaType);
      const action = text(payload.action);
      if (triggers === undefined && !INGESTED_ACTIONS.has(action))
        return ignored(`issues action ${JSON.stringify(action)} is not ingested`);
      const skipped = triggers && triggerSkipReason(event, payload, triggers);
      if (skipped !== undefined) return ignored(skipped);
      return issueTicket(payload, rules);
    },
  };
}

/** The ticket of the event's issue, unless the label rules skip it. */
function issueTicket(payload: JsonObject, rules: CodehostAIssueRules | undefined): SourceOutcome {
  const issue = payload.issue;
  if (!isObject(issue)) throw badRequest("the event lacks the issue object");
  const repository = isObject(payload.repository) ? payload.repository : {};
  const id = requireId(issue.number, "issue.number");
  const labels = labelNames(issue.labels);
  const skip = rules && labelSkipReason(labels, rules);
  if (skip !== undefined) return ignored(`issue #${id} ${skip}`);
  return accepted([
    makeTicket({
      id,
      title: text(issue.title),
      description: text(issue.body),
      ticketType: "issue",
      repoUrl: text(repository.html_url),
      externalUrl: text(issue.html_url),
      labels,
      source: "codehost_a",
      rawEvent: payload,
    }),
  ]);
}

function decode(body: Buffer, mediaType: string): JsonObject {
  if (mediaType !== "application/x-www-form-urlencoded") return parseJsonObject(body);
  const payload = parseForm(body).get("payload");
  if (payload === null) throw badRequest("form body lacks the payload field");
  return parseJsonObject(payload, "payload field");
}
