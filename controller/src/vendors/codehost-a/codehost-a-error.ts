import { ControllerError } from "../../errors.js";
import { failureForStatus, TicketSourceError, type TicketSourceFailure } from "../../sources/ticket-source-error.js";

/** What an Octokit request error carries that we read (duck-typed: @octokit/request-error is not our dependency). */
interface RequestErrorShape {
  status: number;
  message: string;
  response?: { headers?: Record<string, string | undefined>; data?: unknown };
}

/** Code host A's API failed or refused a request; `status` is the HTTP status (500 for no answer). */
export class CodehostAError extends TicketSourceError {
  override readonly name: string = "CodehostAError";

  constructor(
    message: string,
    options: { hint: string; status?: number; cause?: unknown; failure?: TicketSourceFailure },
  ) {
    super(options.failure ?? failureForStatus(options.status), message, options);
  }
}

/** True for an error with an HTTP status, as Octokit throws them. */
export function isRequestError(error: unknown): error is RequestErrorShape {
  return error instanceof Error && typeof (error as { status?: unknown }).status === "number";
}

/** True when the request was cancelled by our own signal (shutdown): such errors are passed on as they are. */
export function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof Error && error.name === "AbortError");
}

/**
 * Turns what Octokit threw while `doing` something on `repo` into a
 * CodehostAError whose hint says what to check. Aborts and our own errors
 * pass through unchanged.
 */
export function toCodehostAError(error: unknown, doing: string, repo: string, signal: AbortSignal): unknown {
  if (error instanceof ControllerError || isAbort(error, signal) || !isRequestError(error)) return error;
  const { status } = error;
  const detail = vendorMessage(error);
  const headers = error.response?.headers ?? {};
  const base = { status, cause: error };
  if (status === 401) {
    return new CodehostAError(`code host A refused the token while trying to ${doing} (401 ${detail})`, {
      ...base,
      hint: "check the secret named by ticketing.config.token_secret: the token may be mistyped, expired or revoked",
    });
  }
  if (
    status === 429
    || (status === 403
      && (headers["x-ratelimit-remaining"] === "0"
        || headers["retry-after"] !== undefined
        || /rate limit/i.test(detail)))
  ) {
    return new CodehostAError(`code host A rate-limited the request to ${doing} (${status} ${detail})`, {
      ...base,
      failure: "rate_limited",
      hint: "nothing to do: the controller waits for the limit to reset and catches up; if it recurs, raise ticketing.poll_interval or give the controller a token of its own",
    });
  }
  if (status === 403) {
    return new CodehostAError(`code host A forbade the request to ${doing} on ${repo} (403 ${detail})`, {
      ...base,
      hint: `give the token Issues: read and write on ${repo} (fine-grained token) or the repo scope (classic token)`,
    });
  }
  if (status === 404 || status === 410) {
    return new CodehostAError(`code host A answered ${status} to the request to ${doing} on ${repo} (${detail})`, {
      ...base,
      hint: `check ticketing.config.owner and repo, that ${repo} has issues enabled, and that the token can see it`,
    });
  }
  if (status >= 500) {
    return new CodehostAError(
      `code host A did not answer the request to ${doing} (${status === 500 && error.response === undefined ? "no response" : status}: ${detail})`,
      {
        ...base,
        failure: "unavailable",
        hint: "nothing to do if it passes: the controller retries with back-off; if it lasts, check ticketing.config.api_base_url and the code host's status page",
      },
    );
  }
  return new CodehostAError(`code host A refused the request to ${doing} on ${repo} (${status} ${detail})`, {
    ...base,
    hint: "read the code host's message above; the request the controller made is named in it",
  });
}

function vendorMessage(error: RequestErrorShape): string {
  const data = error.response?.data;
  if (typeof data === "object" && data !== null && typeof (data as { message?: unknown }).message === "string")
    return (data as { message: string }).message;
  return error.message;
}
