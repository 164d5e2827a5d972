import type { TaskResult } from "@errand/channel-sdk";
import { createSecretMask } from "@errand/channel-sdk/logger";

/** Cleans one text an engine produced before the controller keeps or forwards it. */
export type Scrub = (text: string) => string;

/**
 * A scrubber for one run's output: every form of every secret value (as is,
 * JSON-escaped, percent-encoded) becomes `[redacted]`, then the run's
 * absolute workspace path becomes relative to the workspace
 * (`/var/lib/errand/ws/run_1/src/x.ts` → `src/x.ts`, the folder itself `.`),
 * so that chat and the console show neither a credential nor the server's
 * folders. `workspace` undefined: secrets only.
 */
export function createScrub(secrets: Iterable<string>, workspace: string | undefined): Scrub {
  const mask = createSecretMask(secrets);
  if (workspace === undefined || workspace === "/") return mask;
  const root = workspace.replace(/\/+$/, "");
  // Compiled at the first text that names the workspace: most runs' texts never do, and every run has a scrubber.
  let pattern: RegExp | undefined;
  return (text) => {
    const masked = mask(text);
    if (!masked.includes(root)) return masked;
    pattern ??= workspacePattern(root);
    return masked.replace(pattern, (_match, slash: string | undefined) => (slash === undefined ? "." : ""));
  };
}

/**
 * Matches the workspace path only where it starts a path (not inside a
 * longer one: `/home/u/workspace/x` is not `/workspace/x`) and ends at a
 * path boundary (not `/workspace2`). Group 1 is the slash before a path
 * inside it, kept off the relative path. `root` has no trailing slash.
 */
function workspacePattern(root: string): RegExp {
  const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\w.~/-])${escaped}(?:(/)(?=[^\\s/])|(?![\\w.~-]))`, "g");
}

/** The result with its texts scrubbed: summary, failure reason and pull request URL. */
export function scrubResult(result: TaskResult, scrub: Scrub): TaskResult {
  return {
    ...result,
    summary: scrub(result.summary),
    failureReason: scrub(result.failureReason),
    pullRequestUrl: scrub(result.pullRequestUrl),
  };
}
