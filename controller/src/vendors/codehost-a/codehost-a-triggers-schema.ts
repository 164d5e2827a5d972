/** What starts a run from code host A's webhook: `repositories.codehost_a.triggers` and `bot_login`, resolved. */
export interface CodehostATriggers {
  /** A label whose addition starts a run. */
  label: string;
  /** Whether assigning the issue to `botLogin` starts a run. */
  assignee: boolean;
  /** A phrase that starts a run when a new issue comment by a user with write access contains it. */
  mention: string;
  /** The login errand's credentials act as; its own comments never start a run. */
  botLogin?: string;
}
