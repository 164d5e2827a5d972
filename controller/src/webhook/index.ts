/**
 * The inbound webhook intake: authenticates events from every source, maps
 * them to tickets, and hands them on exactly once.
 * @packageDocumentation
 */

export { type SpecTicket, toSpecTicket } from "../runs/spec-ticket.js";
export * from "./auth/index.js";
export * from "./dedupe/index.js";
export * from "./errors.js";
export type { ApprovalHandler, DeliveryContext, TicketHandler, TicketHandlerResult } from "./handlers.js";
export { createWebhookMetrics, type Outcome, type WebhookMetrics } from "./metrics.js";
export {
  APPROVAL_PREFIX,
  type ApprovalCallback,
  createSources,
  type SourceOutcome,
  type WebhookSource,
} from "./parsing/index.js";
export type { WebhookReply } from "./responses.js";
export { ENABLE_HINT, PATH_PREFIX, ROUTES } from "./routes.js";
export * from "./server.js";
