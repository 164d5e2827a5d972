import { failureForStatus, TicketSourceError } from "../../sources/ticket-source-error.js";

/** What the controller was doing when tracker B failed, e.g. `GET /api/v3/workflows`. */
export type TrackerBCall = string;

/**
 * Tracker B (its REST API) failed a call: an error status, a network
 * failure, a timeout or a rate limit that did not clear in time. The
 * message names the call and the answer; the token never appears (the
 * axios error, which carries the request headers, is not kept as cause).
 */
export class TrackerBApiError extends TicketSourceError {
  override readonly name: string = "TrackerBApiError";
  /** The call that failed. */
  readonly call: TrackerBCall;

  constructor(call: TrackerBCall, status: number | undefined, message: string, hint: string) {
    // A refused token is a setup problem, a missing story one the user named, the rest the vendor's trouble.
    super(failureForStatus(status), message, { hint, status });
    this.call = call;
  }
}

interface AxiosLike {
  isAxiosError?: boolean;
  code?: string;
  message?: string;
  response?: { status: number; data?: unknown; headers?: Record<string, unknown> };
}

/** The status and the `Retry-After` header of an axios error, when it is one with an answer. */
export function responseOf(error: unknown): { status: number; retryAfter: string | undefined } | undefined {
  const e = error as AxiosLike | null;
  if (e === null || typeof e !== "object" || e.isAxiosError !== true || e.response === undefined) return undefined;
  const header = e.response.headers?.["retry-after"];
  return { status: e.response.status, retryAfter: typeof header === "string" ? header : undefined };
}

/** Turns whatever the SDK threw into a {@link TrackerBApiError} that says what to do. */
export function toTrackerBError(error: unknown, call: TrackerBCall): TrackerBApiError {
  if (error instanceof TrackerBApiError) return error;
  const e = error as AxiosLike | null;
  if (e === null || typeof e !== "object" || e.isAxiosError !== true) {
    const text = error instanceof Error ? error.message : String(error);
    return new TrackerBApiError(
      call,
      undefined,
      `tracker B call ${call} failed: ${text}`,
      "check ticketing.config.api_base_url and the network",
    );
  }
  if (e.response === undefined) {
    const why =
      e.code === "ECONNABORTED" || e.code === "ETIMEDOUT"
        ? "no answer in time"
        : `${e.code ?? "network error"}: ${e.message ?? ""}`.trim();
    return new TrackerBApiError(
      call,
      undefined,
      `tracker B could not be reached for ${call} (${why})`,
      "check ticketing.config.api_base_url and the network; polling tries again later",
    );
  }
  const status = e.response.status;
  const said = vendorMessage(e.response.data);
  const message = `tracker B answered ${status} to ${call}${said ? `: ${said}` : ""}`;
  return new TrackerBApiError(call, status, message, hintFor(status));
}

function hintFor(status: number): string {
  if (status === 401)
    return "the API token was refused: create a token in the tracker's settings (API Tokens) and store it in the secret named by ticketing.config.token_secret";
  if (status === 403)
    return "the token's member may not do this: use a token of a member with write access to the stories";
  if (status === 404) return "the story or resource is gone (deleted or archived); nothing to write back";
  if (status === 429)
    return "the tracker's rate limit (about 200 requests a minute per token) was hit; raise ticketing.poll_interval or share the token with fewer clients";
  if (status >= 500) return "the tracker had trouble; polling backs off and tries again on its own";
  return "the tracker refused the request; check the configured state and member names";
}

function vendorMessage(data: unknown): string {
  if (typeof data === "string") return data.slice(0, 300);
  if (data !== null && typeof data === "object") {
    const body = data as { message?: unknown; error?: unknown; tag?: unknown };
    const parts = [body.message, body.error, body.tag].filter((p): p is string => typeof p === "string" && p !== "");
    return parts.join(" / ").slice(0, 300);
  }
  return "";
}
