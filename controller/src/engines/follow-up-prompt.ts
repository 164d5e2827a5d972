import type { Ticket } from "@errand/channel-sdk";
import type { FollowUpContext } from "../runs/follow-up.js";
import { buildPrompt } from "./prompt.js";

/**
 * The built-in prompt of a follow-up run (docs/engines.md shows it): the
 * review comments, the branch and pull request to update, and the original
 * ticket. It keeps the last line `PR: <url>` the presets read.
 */
export const DEFAULT_FOLLOW_UP_PROMPT_TEMPLATE = `You opened a pull request for a ticket from {{source}}, and a reviewer asked for changes. Make them.

Pull request: {{pull_request_url}}
Branch: {{branch}}

Review comments:
{{review_comments}}

The original ticket {{id}} ({{ticket_type}}): {{title}}
Ticket link: {{external_url}}
Repository: {{repo_url}}
Labels: {{labels}}

Description:
{{description}}

How to work:
1. Work in the current directory, on the branch {{branch}} (check it out if it is not checked out yet). Do not create another branch or another pull request.
2. Address every review comment, and run the project's tests and linters if it has any.
3. Commit and push to {{branch}}: the pull request shows the new commits.
4. End your reply with a short summary of what you changed, then, as the very last line:
PR: {{pull_request_url}}
`;

/**
 * The built-in follow-up prompt when the controller prepared the checkout
 * (`repositories.codehost_a`): the branch is checked out, and the controller
 * pushes the agent's commits to the pull request after the run.
 */
export const CHECKOUT_FOLLOW_UP_PROMPT_TEMPLATE = DEFAULT_FOLLOW_UP_PROMPT_TEMPLATE.replace(
  "1. Work in the current directory, on the branch {{branch}} (check it out if it is not checked out yet). Do not create another branch or another pull request.",
  "1. The current directory is a checkout of the repository on the branch {{branch}}. Do not create another branch or another pull request.",
).replace(
  "3. Commit and push to {{branch}}: the pull request shows the new commits.",
  "3. Commit your changes in this checkout, and do not push: errand pushes them to {{branch}} after you finish.",
);

/**
 * The prompt of a run: for a follow-up, the engine's own template when it
 * uses `{{review_comments}}` (written for both kinds of run), else the
 * built-in follow-up template (its checkout form when `checkout`); for any
 * other run, the engine's template (or the built-in one).
 */
export function buildRunPrompt(
  ticket: Ticket,
  template: string | undefined,
  followUp?: FollowUpContext,
  checkout = false,
): string {
  if (followUp === undefined) return buildPrompt(ticket, template);
  const own = template !== undefined && /\{\{\s*review_comments\s*\}\}/.test(template);
  const builtIn = checkout ? CHECKOUT_FOLLOW_UP_PROMPT_TEMPLATE : DEFAULT_FOLLOW_UP_PROMPT_TEMPLATE;
  return buildPrompt(ticket, own ? template : builtIn, followUp);
}
