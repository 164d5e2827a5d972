/**
 * Stable codes of the controller's own errors. A code never changes meaning
 * once released: match on `error.code`, never on the message.
 */
export const ControllerErrorCode = {
  /** The configuration file cannot be used; `problems` lists every reason. */
  InvalidConfig: "ERR_INVALID_CONFIG",
  /** A secret named in the configuration was found nowhere. */
  SecretNotFound: "ERR_SECRET_NOT_FOUND",
  /** The store could not be opened, migrated or written. */
  Store: "ERR_STORE",
  /** A TaskRun, ticket or channel named by the user does not exist. */
  NotFound: "ERR_NOT_FOUND",
  /** The request is valid but not in the subject's current state (cancel a finished run, say). */
  Conflict: "ERR_CONFLICT",
  /** The engine could not be started (missing binary, bad working directory). */
  EngineStart: "ERR_ENGINE_START",
  /** The engine ran but its output or result file could not be read as a result. */
  EngineResult: "ERR_ENGINE_RESULT",
  /** A ticket source's API failed or refused a request (outage, rate limit, permissions); the hint says what to check. */
  TicketSource: "ERR_TICKET_SOURCE",
  /** Chat A's API failed or refused a call of the approval flow (posting or updating an approval message). */
  ApprovalMessage: "ERR_APPROVAL_MESSAGE",
  /** A bug or an unexpected state; the message says what happened. */
  Internal: "ERR_INTERNAL",
  /** Repository access failed (credential, clone, push, pull request); `RepositoryError.reason` says which. */
  Repository: "ERR_REPOSITORY",
} as const;

/** One of {@link (ControllerErrorCode:variable)}. */
export type ControllerErrorCode = (typeof ControllerErrorCode)[keyof typeof ControllerErrorCode];

/** Options of every {@link ControllerError}. */
export interface ControllerErrorOptions {
  cause?: unknown;
  /** One instruction telling the user how to fix it. */
  hint?: string;
}

/**
 * Base of every error the controller throws on purpose. It does not extend
 * the SDK's gRPC-mapped errors: the controller's errors never travel to a
 * plugin, and importing the SDK root here would load @grpc/grpc-js into
 * processes that host no plugin (the webhook server, `errand runs`).
 */
export class ControllerError extends Error {
  override readonly name: string = "ControllerError";
  readonly code: ControllerErrorCode;
  readonly hint: string | undefined;

  constructor(code: ControllerErrorCode, message: string, options: ControllerErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
  }
}

/** Thrown by the store; `hint` tells what to check (the path, the server, the permissions). */
export class StoreError extends ControllerError {
  override readonly name: string = "StoreError";
  constructor(message: string, options: ControllerErrorOptions = {}) {
    super(ControllerErrorCode.Store, message, options);
  }
}

/** A user named a run, ticket or channel that does not exist. */
export class NotFoundError extends ControllerError {
  override readonly name: string = "NotFoundError";
  constructor(message: string, options: ControllerErrorOptions = {}) {
    super(ControllerErrorCode.NotFound, message, options);
  }
}

/** The subject is not in a state that allows the request. */
export class ConflictError extends ControllerError {
  override readonly name: string = "ConflictError";
  constructor(message: string, options: ControllerErrorOptions = {}) {
    super(ControllerErrorCode.Conflict, message, options);
  }
}
