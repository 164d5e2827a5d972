import type { Logger, Ticket } from "@errand/channel-sdk";
import { ControllerError, ControllerErrorCode } from "../../errors.js";
import type { PollAdapter, PollContext } from "../../sources/polling/poll-adapter.js";
import { checkRepository, type RepositoryFacts } from "./check-repository.js";
import { createCodehostAClient } from "./codehost-a-client.js";
import { toCodehostAError } from "./codehost-a-error.js";
import { judge } from "./codehost-a-rules.js";
import type { CodehostATicketingConfig } from "./codehost-a-schema.js";
import { createIssuePages } from "./issue-pages.js";
import { createRateLimitGate } from "./rate-limit-gate.js";
import { isOurs, markFinished, markPickedUp } from "./write-back.js";

/** Tuning of {@link createCodehostAAdapter}; the defaults suit the real code host. */
export interface CodehostAAdapterOptions {
  /** Length of one second in Retry-After and retry waits; default 1000 (tests shrink it). */
  secondMs?: number;
  /** Longest one attempt of a request may take; default 30 s. */
  requestTimeoutMs?: number;
  /** Longest rate-limit wait taken inside a request (once); longer ones fail the poll until the reset. Default 60 s. */
  maxRateLimitWaitSeconds?: number;
}

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };

/** Fails at start-up, not at the first poll, when the configured token secret is empty or missing. */
function requireToken(config: CodehostATicketingConfig, token: string | undefined): asserts token is string {
  if (token === undefined || token === "") {
    throw new ControllerError(
      ControllerErrorCode.SecretNotFound,
      `the secret "${config.token_secret}" named by ticketing.config.token_secret has no value`,
      {
        hint: "put code host A's token in that secret (for example the environment variable ERRAND_SECRET_<NAME>)",
      },
    );
  }
}

/**
 * Code host A (a GitHub-style host) as a polled ticket source, through
 * Octokit with its throttling and retry plugins. Picks up open issues of
 * `owner/repo` that carry every trigger label, none of the excluded ones and
 * not the failed label; adds the in-progress label on pick-up, the failed
 * label on failure and a comment with the pull request link on success
 * (spec 3, issue 11).
 */
export function createCodehostAAdapter(
  config: CodehostATicketingConfig,
  token: string | undefined,
  options: CodehostAAdapterOptions = {},
): PollAdapter {
  requireToken(config, token);
  const secondMs = options.secondMs ?? 1000;
  const repoName = `${config.owner}/${config.repo}`;
  let logger = quiet;
  const gate = createRateLimitGate(secondMs);
  const client = createCodehostAClient({
    token,
    baseUrl: config.api_base_url,
    id: `codehost_a:${repoName}`,
    gate,
    logger: () => logger,
    secondMs,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    maxRateLimitWaitSeconds: options.maxRateLimitWaitSeconds ?? 60,
  });
  const pages = createIssuePages(client, config);
  const target = { client, config };
  let repository: RepositoryFacts | undefined;

  /** Runs one call with the caller's logger, turning Octokit's errors into CodehostAErrors. */
  const call = async <T>(ctx: PollContext, doing: string, body: () => Promise<T>): Promise<T> => {
    logger = ctx.logger;
    try {
      return await body();
    } catch (error) {
      throw toCodehostAError(error, doing, repository?.fullName ?? repoName, ctx.signal);
    }
  };
  const prepared = async (ctx: PollContext) => {
    repository ??= await call(ctx, "read the repository and its labels", () =>
      checkRepository(client, config, ctx.signal),
    );
    return repository;
  };
  /** Write-backs only touch issues of the configured repository: a webhook may deliver issues of others under the same numbers. */
  const ours = async (ctx: PollContext, ticket: Ticket, step: string) => {
    const { htmlUrl } = await prepared(ctx);
    if (isOurs(ticket, htmlUrl)) return true;
    ctx.logger.warn(`not writing back (${step}): the ticket is not an issue of ${repoName}`, {
      ticket: ticket.id,
      repo_url: ticket.repoUrl,
      expected: htmlUrl,
    });
    return false;
  };

  return {
    backend: "codehost_a",
    limitedUntil: () => gate.blockedUntil,
    async prepare(ctx) {
      await prepared(ctx);
    },
    async poll(ctx) {
      const { htmlUrl } = await prepared(ctx);
      const issues = await call(ctx, "list the open issues", () => pages.list(ctx.signal));
      return judge(issues, config, htmlUrl);
    },
    async pickedUp(ticket, _run, ctx) {
      if (!(await ours(ctx, ticket, "picked up"))) return;
      await call(ctx, `add the label "${config.in_progress_label}" to issue #${ticket.id}`, () =>
        markPickedUp(target, ticket, ctx.signal),
      );
    },
    async finished(ticket, run, result, ctx) {
      if (!(await ours(ctx, ticket, "finished"))) return;
      await call(ctx, `record the end of run ${run.id} on issue #${ticket.id}`, () =>
        markFinished(target, ticket, run, result, ctx.signal),
      );
    },
  };
}
