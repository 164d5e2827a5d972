import { ControllerError, ControllerErrorCode, type ControllerErrorOptions } from "../errors.js";

/** Stable reasons of a {@link RepositoryError}: match on these, never on the message. */
export type RepositoryErrorReason =
  | "private_key_invalid"
  | "app_unauthorized"
  | "installation_not_found"
  | "token_request_failed"
  | "clone_failed"
  | "checkout_failed"
  | "push_failed"
  | "pull_request_failed";

/**
 * Repository access failed: a credential could not be made, or clone, push
 * or the pull request failed. The message names what failed and the key to
 * fix; it never holds a token.
 */
export class RepositoryError extends ControllerError {
  override readonly name: string = "RepositoryError";
  readonly reason: RepositoryErrorReason;

  constructor(reason: RepositoryErrorReason, message: string, options: ControllerErrorOptions = {}) {
    super(ControllerErrorCode.Repository, message, options);
    this.reason = reason;
  }
}
