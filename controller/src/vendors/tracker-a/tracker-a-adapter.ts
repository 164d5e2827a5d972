import { ConfigError } from "../../config/config-error.js";
import type { PollAdapter, PollContext } from "../../sources/polling/poll-adapter.js";
import { allNodes } from "./all-nodes.js";
import { type IssueFacts, pollFilter, skipReason, toTicket } from "./issue-rules.js";
import { createLinearApi, graphqlUrl, type LinearApi } from "./linear-api.js";
import { isTransient, toTrackerAError } from "./tracker-a-error.js";
import type { TrackerATicketingConfig } from "./tracker-a-schema.js";
import { resolveWorkspace, type Workspace } from "./workspace.js";
import { markFinished, markPickedUp } from "./write-back.js";

/** Tuning of {@link createTrackerAAdapter}; the defaults suit the public API. */
export interface TrackerAAdapterOptions {
  /** Bound of one API request, ms (default 30 s). */
  requestTimeoutMs?: number;
  /** Longest rate-limit wait taken in line before a request is sent again (default 5 s); longer waits fail the call. */
  maxInlineWaitMs?: number;
  /** Least time between two re-reads of the team's labels when an issue carries one not seen at start (default 10 min). */
  labelRefreshMs?: number;
}

/**
 * Tracker A (a Linear-style tracker, GraphQL through `@linear/sdk`): polls
 * the team's issues and writes spec 3's labels and comment back. Names in
 * the configuration are resolved to ids at start; a tracker that cannot be
 * reached then is checked at the first poll that reaches it instead, so an
 * outage never stops the controller from starting.
 */
export function createTrackerAAdapter(
  config: TrackerATicketingConfig,
  token: string | undefined,
  options: TrackerAAdapterOptions = {},
): PollAdapter {
  const api = openApi(config, token, options);
  const labelRefreshMs = options.labelRefreshMs ?? 10 * 60_000;
  let workspace: { ws: Workspace; at: number } | undefined;
  let resolving: Promise<Workspace> | undefined;

  const ensure = (ctx: PollContext): Promise<Workspace> => {
    if (workspace !== undefined) return Promise.resolve(workspace.ws);
    resolving ??= call("read the team, its states and labels", () => resolveWorkspace(api.sdk(ctx.signal), config))
      .then((ws) => {
        workspace = { ws, at: Date.now() };
        ctx.logger.info("tracker_a workspace resolved", {
          team: ws.team.key,
          state_filter: ws.state?.name,
          labels: ws.trigger.map((l) => l.name),
        });
        return ws;
      })
      .finally(() => {
        resolving = undefined;
      });
    return resolving;
  };

  return {
    backend: "tracker_a",
    async prepare(ctx) {
      try {
        await ensure(ctx);
      } catch (error) {
        if (!isTransient(error)) throw error;
        ctx.logger.warn(
          "tracker_a cannot be reached at start; its configuration is checked at the first poll that reaches it",
          { error },
        );
      }
    },
    async poll(ctx) {
      let ws = await ensure(ctx);
      const sdk = api.sdk(ctx.signal);
      const issues: IssueFacts[] = await call(`list the issues of team ${ws.team.key}`, async () =>
        allNodes(await sdk.issues({ first: 50, filter: pollFilter(ws) }), `the issues of team ${ws.team.key}`),
      );
      const unknownLabel = issues.some((i) => i.labelIds.some((id) => !ws.labelNames.has(id)));
      if (unknownLabel && workspace !== undefined && Date.now() - workspace.at >= labelRefreshMs) {
        workspace = undefined;
        ws = await ensure(ctx);
      }
      return issues.map((issue) => ({ ticket: toTicket(issue, ws), skip: skipReason(issue, ws) }));
    },
    async pickedUp(ticket, run, ctx) {
      const ws = await ensure(ctx);
      await call(`add the in-progress label to ${ticket.externalUrl}`, () =>
        markPickedUp(api.sdk(ctx.signal), ticket, ws),
      );
      ctx.logger.info("tracker_a issue marked in progress", {
        ticket: ticket.id,
        url: ticket.externalUrl,
        run_id: run.id,
        label: ws.inProgress.name,
      });
    },
    async finished(ticket, run, result, ctx) {
      const ws = await ensure(ctx);
      const what = result.success
        ? `post the completion comment on ${ticket.externalUrl}`
        : `add the failed label to ${ticket.externalUrl}`;
      await call(what, () => markFinished(api.sdk(ctx.signal), ticket, run, result, ws, !config.progress_comment));
      ctx.logger.info(
        result.success ? "tracker_a issue commented with the pull request" : "tracker_a issue marked failed",
        { ticket: ticket.id, url: ticket.externalUrl, run_id: run.id },
      );
    },
  };
}

function openApi(
  config: TrackerATicketingConfig,
  token: string | undefined,
  options: TrackerAAdapterOptions,
): LinearApi {
  if (token === undefined || token.trim() === "") {
    throw new ConfigError([
      {
        key: "ticketing.config.token_secret",
        message: "names a secret with no value",
        fix: "put tracker A's personal API key (or an OAuth access token) in that secret",
      },
    ]);
  }
  try {
    return createLinearApi({
      apiUrl: graphqlUrl(config.api_base_url),
      token: token.trim(),
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
      maxInlineWaitMs: options.maxInlineWaitMs ?? 5_000,
    });
  } catch (error) {
    throw new ConfigError(
      [
        {
          key: "ticketing.config.api_base_url",
          message: `${JSON.stringify(config.api_base_url)} cannot be used: ${(error as Error).message}`,
          fix: "use an https URL (plain http only to localhost or 127.0.0.1), or remove the key",
        },
      ],
      undefined,
      { cause: error },
    );
  }
}

/** Runs one step against the API; whatever it throws becomes a TrackerAError saying what was tried (a ConfigError stays one). */
async function call<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw toTrackerAError(error, what);
  }
}
