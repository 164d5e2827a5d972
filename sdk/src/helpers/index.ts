/**
 * Helpers for channel authors: throttling, a serial queue, retries, a
 * delivery lane composing them, an HTTP client whose failures are typed SDK
 * errors, and text formatting.
 * @packageDocumentation
 */
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
export { formatCost, formatCount, formatDuration, formatTokens } from "./format.js";
export {
  createHttpClient,
  type HttpCallOptions,
  type HttpClient,
  type HttpClientOptions,
  type HttpRequest,
  type HttpResponse,
} from "./http.js";
export { type HttpErrorResponse, httpErrorResponse } from "./http-error-response.js";
export { errorCodeForStatus, type HttpFailure, httpStatusError } from "./http-status-error.js";
export { type RedactUrlOptions, redactUrl } from "./redact.js";
export { type RetryAttempt, type RetryEvent, type RetryOptions, retry } from "./retry.js";
export { parseRetryAfter, parseRetryAfterBody } from "./retry-after.js";
export { createSerialQueue, type ReleaseTurn, type SerialQueue } from "./serial-queue.js";
export { sleep } from "./sleep.js";
export { createThrottle, type ReleaseSlot, type Throttle, type ThrottleOptions } from "./throttle.js";
export { type TicketLink, type TicketLinkOptions, ticketLink } from "./ticket-link.js";
export { isTransientNetworkError, TRANSIENT_NETWORK_CODES, toAttemptError } from "./transport-error.js";
export { type LengthUnit, measure, type TruncateOptions, truncate, truncateEscaped } from "./truncate.js";
export { safeHttpUrl } from "./safe-url.js";
