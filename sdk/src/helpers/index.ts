/**
 * @errand/channel-sdk/helpers: what a channel needs to reach its target
 * within the interface's 5 s: an HTTP client whose failures are typed SDK
 * errors (with retries inside the deadline), retries within a budget for
 * any call, a throttle, text truncation and formatting, ticket links.
 * @packageDocumentation
 */
export type { Ticket, TokenUsage } from "../channel.js";
export type { ChannelError } from "../errors.js";
export { formatCost, formatDuration, formatTokens } from "./format.js";
export { createHttpClient } from "./http.js";
export { type HttpErrorResponse, httpErrorResponse } from "./http-error-response.js";
export type { HttpCallOptions, HttpClient, HttpClientOptions, HttpRequest, HttpResponse } from "./http-types.js";
export { type RetryAttempt, type RetryEvent, type RetryOptions, retry } from "./retry.js";
export { sleep } from "./sleep.js";
export { createThrottle, type ReleaseSlot, type Throttle, type ThrottleOptions } from "./throttle.js";
export { type TicketLink, type TicketLinkOptions, ticketLink } from "./ticket-link.js";
export { type LengthUnit, type TruncateOptions, truncate } from "./truncate.js";
