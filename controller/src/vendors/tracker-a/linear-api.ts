import { setTimeout as sleep } from "node:timers/promises";
import { LinearClient, LinearGraphQLClient, LinearSdk, parseLinearError, RatelimitedLinearError } from "@linear/sdk";
import { rateLimitResetAt } from "./rate-limit-reset.js";
import { rateLimited, TrackerAError } from "./tracker-a-error.js";

/** Options of {@link createLinearApi}. */
export interface LinearApiOptions {
  /** The GraphQL endpoint (the SDK's default, Linear's public API, when undefined). */
  apiUrl: string | undefined;
  /** A personal API key, or an OAuth access token (`lin_oauth_...` or `Bearer ...`). */
  token: string;
  /** Bound of one request, ms: a server that hangs fails the request instead of the poll hanging. */
  requestTimeoutMs: number;
  /** Longest rate-limit wait taken in line (then the request is sent again once); longer waits throw. */
  maxInlineWaitMs: number;
  now?: () => number;
}

/** Tracker A's SDK behind one rate-limit gate. */
export interface LinearApi {
  /** The SDK, every request of which is bound to `signal` and to the request timeout. */
  sdk(signal: AbortSignal): LinearSdk;
  /** While the API's rate limit is spent: when it resets (ms since the epoch). */
  blockedUntil(): number | undefined;
}

/**
 * Builds the SDK's client the way `LinearClient` does (its option checks,
 * headers and error parsing), but with a fetch signal per request, which
 * `LinearClient` cannot take. A RATELIMITED answer closes the gate until
 * the advertised reset: a short wait is taken in line and the request sent
 * once more; a long one throws at once, and so does every request until the
 * reset, so a limited token sends nothing more until then.
 */
export function createLinearApi(options: LinearApiOptions): LinearApi {
  const oauth = options.token.startsWith("Bearer ") || options.token.startsWith("lin_oauth_");
  // Throws for a plain-http URL that is not the local machine: a token never travels unencrypted.
  const parsed = new LinearClient({
    ...(oauth ? { accessToken: options.token } : { apiKey: options.token }),
    apiUrl: options.apiUrl,
  }).options;
  const now = options.now ?? Date.now;
  let blockedUntil: number | undefined;

  const send = async (
    doc: string,
    variables: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<unknown> => {
    const bounded = AbortSignal.any([signal, AbortSignal.timeout(options.requestTimeoutMs)]);
    const client = new LinearGraphQLClient(parsed.apiUrl, { ...parsed, signal: bounded });
    try {
      return await client.request(doc, variables);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (bounded.aborted) {
        throw new TrackerAError("unavailable", `tracker_a did not answer within ${options.requestTimeoutMs / 1000} s`, {
          hint: "the controller retries with growing waits; check the network and the tracker's status page if this lasts",
          cause: error,
        });
      }
      throw parseLinearError(error as Error);
    }
  };

  const request = (signal: AbortSignal) => async (doc: string, variables?: Record<string, unknown>) => {
    for (let attempt = 0; ; attempt++) {
      const wait = blockedUntil === undefined ? 0 : blockedUntil - now();
      if (wait > 0) {
        if (wait > options.maxInlineWaitMs) throw rateLimited(blockedUntil ?? now());
        await sleep(wait, undefined, { signal });
      }
      try {
        return await send(doc, variables, signal);
      } catch (error) {
        if (!(error instanceof RatelimitedLinearError)) throw error;
        blockedUntil = Math.max(blockedUntil ?? 0, rateLimitResetAt(error, now()));
        if (attempt >= 1) throw rateLimited(blockedUntil, error);
      }
    }
  };

  return {
    // The SDK's types make the request generic in its response; ours returns what the server sent.
    sdk: (signal) => new LinearSdk(request(signal) as ConstructorParameters<typeof LinearSdk>[0]),
    blockedUntil: () => (blockedUntil !== undefined && blockedUntil > now() ? blockedUntil : undefined),
  };
}

/** `api_base_url` as the GraphQL endpoint: a bare origin gets Linear's `/graphql` path. */
export function graphqlUrl(apiBaseUrl: string | undefined): string | undefined {
  if (apiBaseUrl === undefined) return undefined;
  const url = new URL(apiBaseUrl);
  if (url.pathname === "/" || url.pathname === "") url.pathname = "/graphql";
  return url.toString();
}
