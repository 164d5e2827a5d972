import type { Logger, TaskResult, Ticket } from "@errand/channel-sdk";
import type { RunOutcome } from "../execution/execution-backend.js";
import { createScrub, scrubResult } from "../execution/output-scrubber.js";
import { parseRepoUrl } from "../guardrails/repo-url.js";
import type { CheckoutOutcome } from "./checkout-outcome.js";
import { finishBranch } from "./finish-branch.js";
import type { CodehostARepositoriesConfig } from "./repositories-schema.js";
import { RepositoryError } from "./repository-error.js";
import type { RepositoryToken } from "./repository-token.js";

/** What {@link finishPodRun} needs for one run. */
export interface PodRunFinish {
  config: { codehostA: CodehostARepositoriesConfig };
  token: RepositoryToken;
  ticket: Ticket;
  runId: string;
  /** The workspace's path in the pod: paths under it are shown relative in the pull request's body. */
  workspace: string | undefined;
  /** Every secret value the run could have seen (tokens included), masked in the pull request's text. */
  secretValues: () => Iterable<string>;
  logger: Logger;
}

/**
 * Finishes a run whose pod cloned and pushed its branch (the Kubernetes
 * backend): the same ending as a local run's ({@link finishBranch}), from
 * what the pod reported in `outcome.checkout`. A failed or detached run, or
 * one without a checkout, is left as it is. Never rejects: a pull request
 * that cannot be opened fails the run with the reason.
 */
export async function finishPodRun(outcome: RunOutcome, finish: PodRunFinish): Promise<RunOutcome> {
  const { checkout } = outcome;
  if (outcome.detached || checkout === undefined || !outcome.result.success) return outcome;
  const note = (line: string) => finish.logger.info(line, { runId: finish.runId, branch: checkout.branch });
  try {
    const parsed = parseRepoUrl(finish.ticket.repoUrl);
    if (!parsed.ok)
      throw new RepositoryError("pull_request_failed", `pull request failed: the ticket's repo_url ${parsed.reason}`);
    const [owner = "", repo = ""] = parsed.repo.path.split("/").slice(-2);
    const shown = scrubResult(outcome.result, createScrub(finish.secretValues(), finish.workspace));
    const result: TaskResult = await finishBranch(
      { ...finish, owner, repo, branch: checkout.branch, base: undefined, result: shown, note },
      async () => pushedBy(checkout),
    );
    return { ...outcome, result };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    note(reason);
    return { ...outcome, result: { ...outcome.result, success: false, failureReason: reason } };
  }
}

/** What the pod's push did, or the RepositoryError of a branch it did not push. */
function pushedBy(checkout: CheckoutOutcome): "pushed" | "no-changes" {
  if (checkout.kind === "pushed" || checkout.kind === "no-changes") return checkout.kind;
  const why =
    checkout.kind === "push-failed" ? `failed: ${checkout.reason}` : "was not done (the engine did not exit 0)";
  throw new RepositoryError("push_failed", `the push of branch ${checkout.branch} ${why}`);
}
