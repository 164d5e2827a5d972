import { isObject, type JsonObject, text } from "../../webhook/parsing/decode.js";
import type { CodehostATriggers } from "./codehost-a-triggers-schema.js";

export type { CodehostATriggers };

/** The `author_association` values of users with write access to the repository. */
const WRITERS = new Set(["OWNER", "MEMBER", "COLLABORATOR"]);

/**
 * The reason given for pull request events the follow-up rules did not take
 * (they see reviews and comments first): only follow-ups start runs there.
 */
export const PULL_REQUEST_FOLLOW_UP =
  "pull request events start only follow-ups: a review requesting changes, or a comment with the mention, on a pull request errand opened";

/** Events that concern pull requests only; the follow-up rules own them. */
const PULL_REQUEST_EVENTS = new Set(["pull_request", "pull_request_review", "pull_request_review_comment"]);

/**
 * Why an event starts no run under the trigger rules, in words; undefined
 * when it starts one. The issue itself is checked by the caller.
 */
export function triggerSkipReason(event: string, payload: JsonObject, triggers: CodehostATriggers): string | undefined {
  const action = text(payload.action);
  if (event === "issues") return issuesSkipReason(action, payload, triggers);
  if (event === "issue_comment") return commentSkipReason(action, payload, triggers);
  if (PULL_REQUEST_EVENTS.has(event)) return PULL_REQUEST_FOLLOW_UP;
  return `event ${event} is not a trigger (${describeTriggers(triggers)})`;
}

function issuesSkipReason(action: string, payload: JsonObject, triggers: CodehostATriggers): string | undefined {
  if (action === "labeled") {
    const label = isObject(payload.label) ? text(payload.label.name) : "";
    if (label === triggers.label) return undefined;
    return `issues.labeled with label ${label || "(none)"}, not the trigger label ${triggers.label}`;
  }
  if (action === "assigned") {
    const assignee = isObject(payload.assignee) ? text(payload.assignee.login) : "";
    if (triggers.botLogin === undefined)
      return `issues.assigned to ${assignee || "(nobody)"}: repositories.codehost_a.bot_login is not set, so assignment starts no run`;
    if (!triggers.assignee) return "issues.assigned: repositories.codehost_a.triggers.assignee is false";
    if (sameLogin(assignee, triggers.botLogin)) return undefined;
    return `issues.assigned to ${assignee || "(nobody)"}, not the bot login ${triggers.botLogin}`;
  }
  return `issues.${action || "(no action)"} is not a trigger (${describeTriggers(triggers)})`;
}

function commentSkipReason(action: string, payload: JsonObject, triggers: CodehostATriggers): string | undefined {
  if (action !== "created") return `issue_comment.${action || "(no action)"} is not a trigger (only new comments are)`;
  const issue = isObject(payload.issue) ? payload.issue : {};
  if (issue.pull_request !== undefined && issue.pull_request !== null) return PULL_REQUEST_FOLLOW_UP;
  const comment = isObject(payload.comment) ? payload.comment : {};
  const author = isObject(comment.user) ? text(comment.user.login) : "";
  if (triggers.botLogin !== undefined && sameLogin(author, triggers.botLogin))
    return `issue_comment by the bot login ${triggers.botLogin} itself`;
  if (!mentions(text(comment.body), triggers.mention)) return `issue_comment without the mention ${triggers.mention}`;
  const association = text(comment.author_association) || "(none)";
  if (!WRITERS.has(association))
    return `issue_comment mentioning ${triggers.mention} by ${author || "(unknown)"}, whose author_association ${association} is not OWNER, MEMBER or COLLABORATOR`;
  return undefined;
}

/**
 * True when `body` contains `phrase` as a word of its own, ignoring case:
 * `@errand` is in "@errand please fix" and "hi @Errand," but not in
 * "@errand-bot" or "me@errand.dev".
 */
export function mentions(body: string, phrase: string): boolean {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\w.@-])${escaped}(?![\\w-])`, "i").test(body);
}

/** Logins compare without regard to case, as the code host treats them. */
function sameLogin(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function describeTriggers(t: CodehostATriggers): string {
  const assigned = t.assignee && t.botLogin !== undefined ? `, assignment to ${t.botLogin}` : "";
  return `triggers: the label ${t.label}${assigned}, a comment mentioning ${t.mention}`;
}
