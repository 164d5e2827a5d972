/**
 * @errand/channel-sdk/helpers: what a channel needs to reach its target
 * within the interface's 5 s: an HTTP client whose failures are typed SDK
 * errors (with retries inside the deadline), a throttle, a delivery lane,
 * text truncation and formatting, safe links.
 * @packageDocumentation
 */
export type { Ticket, TokenUsage } from "../channel.js";
export type { ChannelError } from "../errors.js";
export { credentialTextProblem } from "./credential-text.js";
export {
  createDeliveryLane,
  type DeliveryLane,
  type DeliveryLaneOptions,
  type LaneAttempt,
  type LaneSendOptions,
  type Pacer,
} from "./delivery-lane.js";
export { type FitLinkOptions, fitLink, type LinkMarkup, shortUrlLabel } from "./fit-link.js";
export { formatCost, formatDuration, formatTokens } from "./format.js";
export { createHttpClient } from "./http.js";
export { type HttpErrorResponse, httpErrorResponse } from "./http-error-response.js";
export type { HttpCallOptions, HttpClient, HttpClientOptions, HttpRequest, HttpResponse } from "./http-types.js";
export type { RetryAttempt, RetryEvent, RetryOptions } from "./retry.js";
export { safeHttpUrl } from "./safe-url.js";
export { sleep } from "./sleep.js";
export { createThrottle, type ReleaseSlot, type Throttle, type ThrottleOptions } from "./throttle.js";
export { type TicketLink, type TicketLinkOptions, ticketLink } from "./ticket-link.js";
export { type LengthUnit, type TruncateOptions, truncate, truncateEscaped } from "./truncate.js";
