import type { TaskResult } from "@errand/channel-sdk";

/**
 * What fills a run's workspace before its engine starts and finishes it
 * after (a checkout of the ticket's repository, then push and pull
 * request: see repositories/). A backend that runs it calls `prepare` once
 * the fresh folder exists and `finish` after the engine ended, before the
 * folder is removed.
 */
export interface RunWorkspace {
  /**
   * Fills the empty `workspace`. Throws an error whose message is the run's
   * one-line failure reason (a failed clone); the run then fails and is not
   * retried. `note` writes a line to the run's log.
   */
  prepare(workspace: string, note: (line: string) => void): Promise<void>;
  /** The branch the checkout is on, once `prepare` succeeded. */
  branch(): string | undefined;
  /** Credential values this run's engine was given (through `engineEnv`): masked in its log. */
  secrets(): readonly string[];
  /** Variables the engine gets besides its own (a token under `repository_token_env`). Read after `prepare`. */
  engineEnv(): Promise<Record<string, string>>;
  /**
   * Finishes the run from its result (push, pull request); the result it
   * settles replaces the engine's. Called for every run that started, also
   * failed ones (to release what `prepare` made). Never rejects.
   */
  finish(workspace: string, result: TaskResult, note: (line: string) => void): Promise<TaskResult>;
}
