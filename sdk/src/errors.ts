import { status as GrpcStatus } from "@grpc/grpc-js";

/**
 * Stable error codes. A code never changes meaning once released; match on
 * `error.code`, never on the message.
 */
export const ErrorCode = {
  /** The channel's `config` or secrets are missing or wrong. */
  InvalidConfig: "ERR_INVALID_CONFIG",
  /** A request carried an unusable value (a missing ticket, say). */
  InvalidArgument: "ERR_INVALID_ARGUMENT",
  /** The target refused with a rate limit; `retryAfterMs` tells how long to wait. */
  RateLimited: "ERR_RATE_LIMITED",
  /** The target could not be reached or answered 5xx. */
  Unavailable: "ERR_UNAVAILABLE",
  /** The target refused the credentials. */
  Unauthenticated: "ERR_UNAUTHENTICATED",
  /** The credentials are valid but lack a permission (a scope, a channel membership). */
  PermissionDenied: "ERR_PERMISSION_DENIED",
  /** The target does not know the addressed resource (a channel, a webhook). */
  NotFound: "ERR_NOT_FOUND",
  /** The call's deadline passed before it finished. */
  DeadlineExceeded: "ERR_DEADLINE_EXCEEDED",
  /** The caller cancelled the call, or the plugin is shutting down. */
  Cancelled: "ERR_CANCELLED",
  /** Host and plugin share no interface version. */
  VersionMismatch: "ERR_VERSION_MISMATCH",
  /** The plugin process could not be started or did not complete its handshake. */
  PluginStart: "ERR_PLUGIN_START",
  /** The plugin process exited while the host needed it. */
  PluginExited: "ERR_PLUGIN_EXITED",
  /** The target rejected the request for a reason no other code covers. */
  Rejected: "ERR_REJECTED",
  /** A bug or an unexpected state; the message says what happened. */
  Internal: "ERR_INTERNAL",
} as const;

/** One of the values of {@link (ErrorCode:variable)}. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Options common to every {@link ChannelError}. */
export interface ChannelErrorOptions {
  /** The error that caused this one. */
  cause?: unknown;
  /** A short instruction that tells the user how to fix the problem. */
  hint?: string;
  /** For rate limits: how long the target asked us to wait, in milliseconds. */
  retryAfterMs?: number;
}

const grpcStatusByCode: Record<ErrorCode, GrpcStatus> = {
  ERR_INVALID_CONFIG: GrpcStatus.FAILED_PRECONDITION,
  ERR_INVALID_ARGUMENT: GrpcStatus.INVALID_ARGUMENT,
  ERR_RATE_LIMITED: GrpcStatus.RESOURCE_EXHAUSTED,
  ERR_UNAVAILABLE: GrpcStatus.UNAVAILABLE,
  ERR_UNAUTHENTICATED: GrpcStatus.UNAUTHENTICATED,
  ERR_PERMISSION_DENIED: GrpcStatus.PERMISSION_DENIED,
  ERR_NOT_FOUND: GrpcStatus.NOT_FOUND,
  ERR_DEADLINE_EXCEEDED: GrpcStatus.DEADLINE_EXCEEDED,
  ERR_CANCELLED: GrpcStatus.CANCELLED,
  ERR_VERSION_MISMATCH: GrpcStatus.FAILED_PRECONDITION,
  ERR_PLUGIN_START: GrpcStatus.UNAVAILABLE,
  ERR_PLUGIN_EXITED: GrpcStatus.UNAVAILABLE,
  ERR_REJECTED: GrpcStatus.ABORTED,
  ERR_INTERNAL: GrpcStatus.INTERNAL,
};

/**
 * Base class of every error the SDK throws or maps. It carries a stable
 * `ErrorCode`, an optional hint for the user, and the gRPC status it
 * travels as between plugin and host.
 */
export class ChannelError extends Error {
  override readonly name: string = "ChannelError";
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(code: ErrorCode, message: string, options: ChannelErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** The gRPC status code this error is sent as. */
  get grpcStatus(): GrpcStatus {
    return grpcStatusByCode[this.code];
  }

  /** True when trying again later may succeed (rate limits, outages). */
  get retryable(): boolean {
    return this.code === ErrorCode.RateLimited || this.code === ErrorCode.Unavailable;
  }

  /** Message and hint together, as a user should read them. */
  describe(): string {
    return this.hint ? `${this.message} (${this.hint})` : this.message;
  }
}

function subclass(code: ErrorCode, name: string) {
  return class extends ChannelError {
    override readonly name: string = name;
    constructor(message: string, options?: ChannelErrorOptions) {
      super(code, message, options);
    }
  };
}

/** The channel's config or secrets are missing or invalid (FAILED_PRECONDITION). */
export class InvalidConfigError extends subclass(ErrorCode.InvalidConfig, "InvalidConfigError") {}
/** A request value is unusable (INVALID_ARGUMENT). */
export class InvalidArgumentError extends subclass(ErrorCode.InvalidArgument, "InvalidArgumentError") {}
/** The target rate-limited us (RESOURCE_EXHAUSTED); see `retryAfterMs`. */
export class RateLimitedError extends subclass(ErrorCode.RateLimited, "RateLimitedError") {}
/** The target is down or unreachable (UNAVAILABLE). */
export class UnavailableError extends subclass(ErrorCode.Unavailable, "UnavailableError") {}
/** The target refused the credentials (UNAUTHENTICATED). */
export class UnauthenticatedError extends subclass(ErrorCode.Unauthenticated, "UnauthenticatedError") {}
/** The credentials lack a permission (PERMISSION_DENIED). */
export class PermissionDeniedError extends subclass(ErrorCode.PermissionDenied, "PermissionDeniedError") {}
/** The addressed resource does not exist at the target (NOT_FOUND). */
export class NotFoundError extends subclass(ErrorCode.NotFound, "NotFoundError") {}
/** The deadline passed (DEADLINE_EXCEEDED). */
export class DeadlineExceededError extends subclass(ErrorCode.DeadlineExceeded, "DeadlineExceededError") {}
/** The call was cancelled (CANCELLED). */
export class CancelledError extends subclass(ErrorCode.Cancelled, "CancelledError") {}
/** Host and plugin share no interface version (FAILED_PRECONDITION). */
export class VersionMismatchError extends subclass(ErrorCode.VersionMismatch, "VersionMismatchError") {}
/** The plugin process failed to start or to complete the handshake. */
export class PluginStartError extends subclass(ErrorCode.PluginStart, "PluginStartError") {}
/** The plugin process exited while it was needed. */
export class PluginExitedError extends subclass(ErrorCode.PluginExited, "PluginExitedError") {}
/** The target rejected the request for a reason no other class covers (ABORTED). */
export class RejectedError extends subclass(ErrorCode.Rejected, "RejectedError") {}
/** An unexpected failure (INTERNAL). */
export class InternalError extends subclass(ErrorCode.Internal, "InternalError") {}

const classByCode: Record<ErrorCode, new (message: string, options?: ChannelErrorOptions) => ChannelError> = {
  ERR_INVALID_CONFIG: InvalidConfigError,
  ERR_INVALID_ARGUMENT: InvalidArgumentError,
  ERR_RATE_LIMITED: RateLimitedError,
  ERR_UNAVAILABLE: UnavailableError,
  ERR_UNAUTHENTICATED: UnauthenticatedError,
  ERR_PERMISSION_DENIED: PermissionDeniedError,
  ERR_NOT_FOUND: NotFoundError,
  ERR_DEADLINE_EXCEEDED: DeadlineExceededError,
  ERR_CANCELLED: CancelledError,
  ERR_VERSION_MISMATCH: VersionMismatchError,
  ERR_PLUGIN_START: PluginStartError,
  ERR_PLUGIN_EXITED: PluginExitedError,
  ERR_REJECTED: RejectedError,
  ERR_INTERNAL: InternalError,
};

/** Builds the subclass that belongs to `code`. */
export function createChannelError(code: ErrorCode, message: string, options?: ChannelErrorOptions): ChannelError {
  return new classByCode[code](message, options);
}

/** True when `value` is an error code this SDK version knows. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && value in classByCode;
}

/** True for a {@link ChannelError} (also across copies of the SDK, by shape). */
export function isChannelError(value: unknown): value is ChannelError {
  return (
    value instanceof ChannelError
    || (value instanceof Error && isErrorCode((value as { code?: unknown }).code) && "grpcStatus" in value)
  );
}

/**
 * Turns anything thrown into a {@link ChannelError}: abort reasons become
 * {@link CancelledError} or {@link DeadlineExceededError}, unknown errors
 * {@link InternalError} with the original as `cause`.
 */
export function toChannelError(error: unknown): ChannelError {
  if (isChannelError(error)) return error;
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) {
    const reason = (error as { cause?: unknown }).cause;
    if (isChannelError(reason)) return reason;
    return error.name === "TimeoutError"
      ? new DeadlineExceededError("the operation timed out", { cause: error })
      : new CancelledError("the operation was cancelled", { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new InternalError(message || "unknown error", { cause: error });
}
