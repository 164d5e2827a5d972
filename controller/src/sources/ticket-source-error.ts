import { ControllerError, ControllerErrorCode } from "../errors.js";

/**
 * What went wrong talking to a ticket source's API, the same for every
 * adapter, so that logs, metrics and the polling source's decisions read one
 * vocabulary (stable values).
 */
export type TicketSourceFailure =
  /** The token was refused or may not do this: the configuration must change. */
  | "auth"
  /** The API's rate limit is spent; requests go again later. */
  | "rate_limited"
  /** The API failed, timed out or could not be reached: the next poll tries again. */
  | "unavailable"
  /** The API understood the request and refused it; the same request gets the same answer. */
  | "rejected"
  /** The ticket or resource is gone (deleted, archived) or was never visible to the token. */
  | "not_found";

/** Options of every {@link TicketSourceError}. */
export interface TicketSourceErrorOptions {
  /** One instruction telling the operator what to check or change. */
  hint: string;
  /** The HTTP status of the API's answer; undefined when no answer came. */
  status?: number | undefined;
  cause?: unknown;
}

/**
 * A ticket source's API failed or refused a request. Every adapter throws
 * a subclass with the one code `ERR_TICKET_SOURCE`; `failure` says what kind
 * of failure it was and `transient` whether it passes on its own.
 */
export class TicketSourceError extends ControllerError {
  override readonly name: string = "TicketSourceError";
  readonly failure: TicketSourceFailure;
  readonly status: number | undefined;

  constructor(failure: TicketSourceFailure, message: string, options: TicketSourceErrorOptions) {
    super(ControllerErrorCode.TicketSource, message, { hint: options.hint, cause: options.cause });
    this.failure = failure;
    this.status = options.status;
  }

  /** True for a failure that passes on its own (rate limit, outage, timeout). */
  get transient(): boolean {
    return this.failure === "rate_limited" || this.failure === "unavailable";
  }
}

/** The failure kind an HTTP status means, for APIs that answer with plain statuses (undefined: no answer came). */
export function failureForStatus(status: number | undefined): TicketSourceFailure {
  if (status === undefined || status >= 500 || status === 408) return "unavailable";
  if (status === 401 || status === 403) return "auth";
  if (status === 429) return "rate_limited";
  if (status === 404 || status === 410) return "not_found";
  return "rejected";
}
