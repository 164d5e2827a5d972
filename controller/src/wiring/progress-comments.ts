import type { Logger } from "@errand/channel-sdk";
import type { Registry } from "prom-client";
import type { ControllerConfig } from "../config/controller-config.js";
import type { RepositoryToken } from "../repositories/repository-token.js";
import type { RunObserver } from "../runs/run-event.js";
import type { ThrottleClock } from "../sources/progress-comment/comment-throttle.js";
import { createProgressCommentObserver } from "../sources/progress-comment/progress-comment-observer.js";
import { createCodehostACommentTarget } from "../vendors/codehost-a/issue-comment-target.js";

/** What the progress comments need besides the configuration. */
export interface ProgressCommentParts {
  /** Code host A's credential (`repositories.codehost_a`); without it, no comment on its issues. */
  codehostAToken: RepositoryToken | undefined;
  logger: Logger;
  registry: Registry;
  clock?: ThrottleClock;
}

/**
 * The run observers that keep a progress comment on the ticket: on code
 * host A issues when `repositories.codehost_a.progress_comment` is on (the
 * default) and a credential is there.
 */
export function createProgressComments(config: ControllerConfig, parts: ProgressCommentParts): RunObserver[] {
  const observers: RunObserver[] = [];
  const codehostA = config.repositories.codehostA;
  if (codehostA?.progress_comment === true && parts.codehostAToken !== undefined) {
    const target = createCodehostACommentTarget({ apiBaseUrl: codehostA.api_base_url, token: parts.codehostAToken });
    observers.push(createProgressCommentObserver({ target, ...common(parts) }));
  }
  return observers;
}

function common(parts: ProgressCommentParts) {
  return {
    logger: parts.logger,
    registry: parts.registry,
    ...(parts.clock === undefined ? {} : { clock: parts.clock }),
  };
}
