import type { RunBranch } from "./branch-name.js";
import { GitCommandError, type GitRunner } from "./git-runner.js";
import { RepositoryError } from "./repository-error.js";

/** Where a prepared checkout starts: the base branch and commit its new commits are counted from. */
export interface CheckoutBase {
  /** The repository's default branch (the pull request's base). */
  baseBranch: string;
  /** The commit the run started from. */
  baseCommit: string;
}

/** What {@link cloneCheckout} needs. */
export interface CloneRequest {
  git: GitRunner;
  cloneUrl: string;
  workspace: string;
  branch: RunBranch;
  depth: number;
  identity: { name: string; email: string };
  /** The config key holding the credential, named in a refused clone's reason. */
  credentialKey: string;
}

/**
 * A shallow clone of the repository's default branch (or of an existing
 * branch) into the empty `workspace`, on the run's branch, with the git
 * identity the agent's commits get. A new run's branch that is already on
 * the remote (an earlier run of the same ticket pushed it: a retry) is
 * checked out as it is, so the run adds to it rather than pushing a branch
 * that would replace it. A failure throws a RepositoryError whose message
 * is the run's one-line reason.
 */
export async function cloneCheckout(request: CloneRequest): Promise<CheckoutBase> {
  const { git, cloneUrl, workspace } = request;
  let branch = request.branch;
  try {
    if (!branch.existing && (await remoteHasBranch(git, cloneUrl, branch.branch, workspace)))
      branch = { ...branch, existing: true };
    const at = branch.existing ? ["--branch", branch.branch] : [];
    await git(["clone", "--quiet", "--no-tags", `--depth=${request.depth}`, ...at, "--", cloneUrl, "."], workspace);
  } catch (error) {
    throw cloneError(error, cloneUrl, request.credentialKey);
  }
  try {
    const baseBranch = branch.existing
      ? await defaultBranch(git, workspace, branch.branch)
      : (await git(["symbolic-ref", "--short", "HEAD"], workspace)).trim();
    if (!branch.existing) await git(["checkout", "--quiet", "-b", branch.branch], workspace);
    await git(["config", "user.name", request.identity.name], workspace);
    await git(["config", "user.email", request.identity.email], workspace);
    const baseCommit = (await git(["rev-parse", "HEAD"], workspace)).trim();
    return { baseBranch, baseCommit };
  } catch (error) {
    throw new RepositoryError("checkout_failed", `checkout of ${branch.branch} failed: ${(error as Error).message}`, {
      cause: error,
      hint: "check repositories.checkout.branch_template",
    });
  }
}

async function remoteHasBranch(git: GitRunner, url: string, branch: string, cwd: string): Promise<boolean> {
  return (await git(["ls-remote", "--heads", "--", url, `refs/heads/${branch}`], cwd)).trim() !== "";
}

/** The remote's HEAD branch, read without fetching it (a follow-up clones only its own branch). */
async function defaultBranch(git: GitRunner, workspace: string, fallback: string): Promise<string> {
  const out = await git(["ls-remote", "--symref", "origin", "HEAD"], workspace);
  return /^ref: refs\/heads\/(\S+)\s+HEAD/m.exec(out)?.[1] ?? fallback;
}

/** The one-line reason of a refused clone: what the code host answered, for which URL, and what to check. */
export function cloneError(error: unknown, url: string, credentialKey: string): RepositoryError {
  const stderr = error instanceof GitCommandError ? error.stderr : String(error);
  const status = /returned error: (\d{3})/.exec(stderr)?.[1];
  let reason: string;
  if (status === "401" || status === "403" || /Authentication failed|could not read (Username|Password)/.test(stderr))
    reason = `code host answered ${status ?? "401"} for ${url}: check ${credentialKey}`;
  else if (status === "404" || /repository '.*' not found|Repository not found/i.test(stderr))
    reason = `code host answered 404 for ${url}: the repository does not exist or ${credentialKey} cannot read it`;
  else if (/Remote branch .* not found/.test(stderr)) reason = `${lastLine(stderr)} in ${url}`;
  else reason = `${lastLine(stderr)} (${url})`;
  return new RepositoryError("clone_failed", `clone failed: ${reason}`, { cause: error });
}

function lastLine(text: string): string {
  return (
    text
      .split("\n")
      .map((l) => l.replace(/^(fatal|error): /, "").trim())
      .filter((l) => l !== "")
      .at(-1) ?? "git gave no message"
  );
}
