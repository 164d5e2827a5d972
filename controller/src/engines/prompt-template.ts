/**
 * The placeholders a prompt template may use, each filled from the ticket (spec field names); the last three
 * from a follow-up run's review (follow-up-prompt.ts), "(none)" for other runs.
 */
export const PROMPT_PLACEHOLDERS = [
  "id",
  "title",
  "description",
  "ticket_type",
  "repo_url",
  "external_url",
  "labels",
  "source",
  "pull_request_url",
  "branch",
  "review_comments",
] as const;

/** One of {@link PROMPT_PLACEHOLDERS}. */
export type PromptPlaceholder = (typeof PROMPT_PLACEHOLDERS)[number];

/**
 * The built-in prompt (docs/engines.md shows it). It asks for a pull request
 * and a last line `PR: <url>`, which is how the presets find the link.
 */
export const DEFAULT_PROMPT_TEMPLATE = `You are resolving a ticket from {{source}}. Make the change it asks for in its repository and open a pull request.

Ticket {{id}} ({{ticket_type}}): {{title}}
Ticket link: {{external_url}}
Repository: {{repo_url}}
Labels: {{labels}}

Description:
{{description}}

How to work:
1. Work in the current directory. If the repository is not checked out here yet, clone {{repo_url}} into it.
2. Create a new branch, make the change, and run the project's tests and linters if it has any.
3. Commit, push the branch and open a pull request (a merge request on GitLab) against the default branch. Give it a clear title and a description that links to {{external_url}}.
4. End your reply with a short summary of what you changed, then, as the very last line:
PR: <the URL of the pull request>
If you could not open a pull request, explain why in the summary and leave out the PR line.
`;

/**
 * The built-in prompt when the controller prepares the checkout and opens
 * the pull request (`repositories.codehost_a` is set; docs/engines.md shows
 * it): the agent works and commits in the checkout, and pushes nothing.
 */
export const CHECKOUT_PROMPT_TEMPLATE = `You are resolving a ticket from {{source}}. Make the change it asks for in the repository checked out in the current directory.

Ticket {{id}} ({{ticket_type}}): {{title}}
Ticket link: {{external_url}}
Repository: {{repo_url}}
Labels: {{labels}}

Description:
{{description}}

How to work:
1. The current directory is a checkout of the repository, on a new branch made for this ticket. Stay on that branch.
2. Make the change, and run the project's tests and linters if it has any.
3. Commit your work with clear messages. Do not push and do not open a pull request: Errand pushes the branch and opens the pull request when you are done. Commit nothing when no change is needed.
4. End your reply with a short summary of what you changed (it becomes the pull request's description), or of why nothing needed changing.
`;
