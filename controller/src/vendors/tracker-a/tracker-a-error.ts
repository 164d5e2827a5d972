import {
  AuthenticationLinearError,
  ForbiddenLinearError,
  LinearError,
  LinearErrorType,
  RatelimitedLinearError,
} from "@linear/sdk";
import { TicketSourceError, type TicketSourceFailure } from "../../sources/ticket-source-error.js";

/** What went wrong talking to tracker A: the failure kinds every ticket source shares. */
export type TrackerAFailure = TicketSourceFailure;

/**
 * A failed call to tracker A. `transient` failures (rate limit, outage)
 * pass on their own and the polling source retries them with back-off; the
 * others need a change of configuration or data.
 */
export class TrackerAError extends TicketSourceError {
  override readonly name: string = "TrackerAError";
  /** When the rate limit lets requests through again (ms since the epoch); rate_limited only. */
  readonly resetAt: number | undefined;

  constructor(
    failure: TrackerAFailure,
    message: string,
    options: { hint: string; cause?: unknown; resetAt?: number; status?: number },
  ) {
    super(failure, message, options);
    this.resetAt = options.resetAt;
  }
}

/** True for a failure that passes on its own (rate limit, outage, timeout). */
export function isTransient(error: unknown): boolean {
  return error instanceof TrackerAError && error.transient;
}

/** The rate-limit error of tracker A, with when requests may go again. */
export function rateLimited(resetAt: number, cause?: unknown): TrackerAError {
  return new TrackerAError(
    "rate_limited",
    `tracker_a rate limit reached; requests resume at ${new Date(resetAt).toISOString()}`,
    {
      hint: "nothing to do: the controller waits for the advertised reset; lengthen ticketing.poll_interval if this repeats",
      resetAt,
      cause,
    },
  );
}

// The API understood the request and said no: retrying the same request gets the same answer.
const REJECTIONS: ReadonlySet<LinearErrorType | undefined> = new Set([
  LinearErrorType.InvalidInput,
  LinearErrorType.UserError,
  LinearErrorType.GraphqlError,
  LinearErrorType.FeatureNotAccessible,
  LinearErrorType.UsageLimitExceeded,
]);

/**
 * Maps what the SDK or fetch threw while doing `what` (`poll`, `add the
 * in-progress label to ENG-1`, ...) to a {@link TrackerAError}.
 */
export function toTrackerAError(error: unknown, what: string): TrackerAError {
  if (error instanceof TrackerAError) return error;
  const status = error instanceof LinearError ? error.status : undefined;
  // The SDK calls every bare 4xx an authentication error; only a 401 or an error the API typed so is one.
  if (
    error instanceof LinearError
    && (error.errors ?? []).length === 0
    && status !== undefined
    && status >= 400
    && status < 500
    && ![401, 403, 429].includes(status)
  ) {
    return new TrackerAError(
      "rejected",
      `tracker_a answered HTTP ${status} while trying to ${what}: ${error.message}`,
      {
        hint: "check that ticketing.config.api_base_url points at the tracker's GraphQL endpoint (https://api.linear.app/graphql), or remove it",
        cause: error,
      },
    );
  }
  if (error instanceof AuthenticationLinearError) {
    return new TrackerAError("auth", `tracker_a refused the token while trying to ${what}: ${error.message}`, {
      hint: "put a valid personal API key (or an OAuth access token) in the secret named by ticketing.config.token_secret",
      cause: error,
    });
  }
  if (error instanceof ForbiddenLinearError) {
    return new TrackerAError("auth", `tracker_a forbade the request while trying to ${what}: ${error.message}`, {
      hint: "use a token of a member of the team with write access to its issues, comments and labels",
      cause: error,
    });
  }
  if (error instanceof RatelimitedLinearError) return rateLimited(Date.now() + 60_000, error);
  if (error instanceof LinearError && REJECTIONS.has(error.type)) {
    return new TrackerAError("rejected", `tracker_a rejected the request to ${what}: ${error.message}`, {
      hint: "check that the issue, labels and team still exist in the tracker",
      cause: error,
    });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new TrackerAError(
    "unavailable",
    `tracker_a could not ${what}: ${detail}${status === undefined ? "" : ` (HTTP ${status})`}`,
    {
      hint: "the controller retries with growing waits; check the network and the tracker's status page if this lasts",
      cause: error,
    },
  );
}
