/**
 * What became of a run's branch once its engine ended, as the backend that
 * pushed it reports: the controller opens the pull request from it.
 */
export type CheckoutOutcome =
  /** The branch had new commits and was pushed; `commit` is its head. */
  | { kind: "pushed"; branch: string; commit: string }
  /** The agent made no commit: nothing was pushed. */
  | { kind: "no-changes"; branch: string }
  /** The engine failed or was stopped: nothing was pushed. */
  | { kind: "not-pushed"; branch: string }
  /** The branch had new commits, and the push failed (the reason as git gave it). */
  | { kind: "push-failed"; branch: string; reason: string };
