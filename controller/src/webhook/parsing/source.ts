import type { IncomingHttpHeaders } from "node:http";
import type { Ticket } from "@errand/channel-sdk";
import type { SourceId } from "../../config/webhook-config.js";
import type { Authenticator } from "../auth/authenticator.js";
import type { ReviewEvent } from "./review-event.js";

/** An approval callback from chat A (an action whose id starts with `agent_approval_`). */
export interface ApprovalCallback {
  source: "chat_a";
  actionId: string;
  value: string;
  userId: string;
  username: string;
  channelId: string;
  triggerId: string;
  /** Where the approval flow may post a follow-up message; empty when absent. */
  responseUrl: string;
  /** The whole interaction payload. */
  payload: Record<string, unknown>;
}

/** What a source made of one delivery. */
export interface SourceOutcome {
  tickets: Ticket[];
  approvals: ApprovalCallback[];
  /** Set when the event is acknowledged but not forwarded: the reason. */
  ignored?: string;
  /** Reviews on pull requests, for the follow-up handler (WebhookServerOptions.onReviews). */
  reviews?: ReviewEvent[];
}

/** One webhook source: how it authenticates, what it accepts, how it maps events. */
export interface WebhookSource {
  readonly id: SourceId;
  readonly auth: Authenticator;
  /** Accepted media types, lower-case, without parameters. */
  readonly mediaTypes: readonly string[];
  /** Headers carrying a delivery id for deduplication, in order of preference. */
  readonly deliveryHeaders: readonly string[];
  /**
   * Turns an authenticated raw body into tickets or approvals. Throws a
   * 400 {@link WebhookError} when the body is not what the source sends.
   */
  map(body: Buffer, mediaType: string, headers: IncomingHttpHeaders): SourceOutcome;
}

/** An outcome that forwards nothing. */
export function ignored(reason: string): SourceOutcome {
  return { tickets: [], approvals: [], ignored: reason };
}

/** An outcome that forwards tickets. */
export function accepted(tickets: Ticket[]): SourceOutcome {
  return { tickets, approvals: [] };
}

/** An outcome that forwards a review on a pull request to the follow-up handler. */
export function reviewed(review: ReviewEvent): SourceOutcome {
  return { tickets: [], approvals: [], reviews: [review] };
}
