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
  const relative = workspace === undefined || workspace === "/" ? undefined : workspacePattern(workspace);
  if (relative === undefined) return mask;
  return (text) => {
    const masked = mask(text);
    return masked.includes(relative.root)
      ? masked.replace(relative.pattern, (_match, slash: string | undefined) => (slash === undefined ? "." : ""))
      : masked;
  };
}

/**
 * Matches the workspace path only where it starts a path (not inside a
 * longer one: `/home/u/workspace/x` is not `/workspace/x`) and ends at a
 * path boundary (not `/workspace2`). Group 1 is the slash before a path
 * inside it, kept off the relative path.
 */
function workspacePattern(workspace: string): { root: string; pattern: RegExp } {
  const root = workspace.replace(/\/+$/, "");
  const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return { root, pattern: new RegExp(`(?<![\\w.~/-])${escaped}(?:(/)(?=[^\\s/])|(?![\\w.~-]))`, "g") };
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
