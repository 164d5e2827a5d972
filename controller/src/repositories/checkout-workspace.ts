import { join } from "node:path";
import type { Ticket } from "@errand/channel-sdk";
import { createScrub, scrubResult } from "../execution/output-scrubber.js";
import type { RunWorkspace } from "../execution/run-workspace.js";
import { parseRepoUrl } from "../guardrails/repo-url.js";
import type { RunBranch } from "./branch-name.js";
import { type CheckoutBase, cloneCheckout } from "./clone-checkout.js";
import { createGitAskpass, type GitAskpass } from "./git-askpass.js";
import { createGitRunner, type GitRunner } from "./git-runner.js";
import { pushAndOpen } from "./push-and-open.js";
import type { RepositoriesConfig } from "./repositories-schema.js";
import { RepositoryError } from "./repository-error.js";
import type { RepositoryToken } from "./repository-token.js";

/** What {@link createCheckoutWorkspace} needs for one run. */
export interface CheckoutWorkspaceOptions {
  config: RepositoriesConfig & { codehostA: NonNullable<RepositoriesConfig["codehostA"]> };
  token: RepositoryToken;
  ticket: Ticket;
  runId: string;
  branch: RunBranch;
  /** A folder outside the workspace for the askpass script and the token file (made 0700, removed at the end). */
  credentialsDir: string;
  /** Engine variables that get the token (`engines.<name>.repository_token_env`). */
  tokenEnv: readonly string[];
  /** Every secret value the run could have seen (tokens included), for the pull request's text. */
  secretValues: () => Iterable<string>;
}

/** The state of a prepared checkout. */
interface Prepared {
  git: GitRunner;
  askpass: GitAskpass;
  base: CheckoutBase;
  owner: string;
  repo: string;
}

/**
 * A run's workspace as a checkout of the ticket's repository on code host A:
 * cloned before the engine starts, pushed with a pull request after it
 * succeeded. See docs/operators-guide.md, "Repository access".
 */
export function createCheckoutWorkspace(options: CheckoutWorkspaceOptions): RunWorkspace {
  const { config, ticket } = options;
  const credentialKey = credentialKeyOf(config.codehostA);
  let prepared: Prepared | undefined;
  const given: string[] = [];
  return {
    async prepare(workspace, note) {
      const parsed = parseRepoUrl(ticket.repoUrl);
      if (!parsed.ok) throw new RepositoryError("clone_failed", `clone failed: the ticket's repo_url ${parsed.reason}`);
      const { repo } = parsed;
      if (repo.scheme === "ssh")
        throw new RepositoryError(
          "clone_failed",
          `clone failed: ${repo.cloneUrl} is an ssh address; the controller clones over https with ${credentialKey}`,
        );
      const askpass = createGitAskpass(options.credentialsDir);
      try {
        askpass.setToken(await options.token.token());
        const git = createGitRunner({ askpass: askpass.script, home: askpass.home });
        note(`cloning ${repo.cloneUrl} (depth ${config.checkout.depth}) on branch ${options.branch.branch}`);
        const base = await cloneCheckout({
          git,
          cloneUrl: repo.cloneUrl,
          workspace,
          branch: options.branch,
          depth: config.checkout.depth,
          identity: { name: config.checkout.git_user_name, email: config.checkout.git_user_email },
          credentialKey,
        });
        const [owner = "", name = ""] = repo.path.split("/").slice(-2);
        prepared = { git, askpass, base, owner, repo: name };
      } catch (error) {
        askpass.remove();
        throw error;
      }
    },
    branch: () => (prepared === undefined ? undefined : options.branch.branch),
    secrets: () => given,
    async engineEnv() {
      if (options.tokenEnv.length === 0) return {};
      const token = await options.token.token();
      given.push(token);
      return Object.fromEntries(options.tokenEnv.map((name) => [name, token]));
    },
    async finish(workspace, result, note) {
      if (prepared === undefined) return result;
      const state = prepared;
      prepared = undefined;
      try {
        if (!result.success) return result;
        // The pull request's body quotes the agent's summary, in public: it gets the scrubbing backend's mask.
        const shown = scrubResult(result, createScrub(options.secretValues(), workspace));
        return await pushAndOpen({
          ...state,
          config,
          token: options.token,
          ticket,
          runId: options.runId,
          workspace,
          branch: options.branch.branch,
          result: shown,
          note,
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        note(reason);
        return { ...result, success: false, failureReason: reason };
      } finally {
        state.askpass.remove();
      }
    },
  };
}

/** The config key naming the credential, for reasons that say what to check. */
export function credentialKeyOf(config: NonNullable<RepositoriesConfig["codehostA"]>): string {
  return config.app === undefined ? "repositories.codehost_a.token_secret" : "repositories.codehost_a.app";
}

/** The credentials folder of a run: beside the run folders, outside every workspace. */
export function credentialsDirOf(workspaceDir: string, runId: string): string {
  return join(workspaceDir, ".errand", `${runId}.git-credentials`);
}
