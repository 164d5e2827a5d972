import { Metadata, status as GrpcStatus, type ServiceError, type StatusObject } from "@grpc/grpc-js";
import {
  type ChannelError,
  createChannelError,
  ErrorCode,
  isErrorCode,
} from "../errors.js";

// Trailer keys that carry the SDK's own error details across the wire, so a
// host gets back the exact error class the plugin threw, not just a status.
const CODE_KEY = "errand-error-code";
const HINT_KEY = "errand-error-hint";
const RETRY_AFTER_KEY = "errand-retry-after-ms";

/** The gRPC status a plugin answers with for `error`. */
export function toStatus(error: ChannelError): Partial<StatusObject> {
  const metadata = new Metadata();
  metadata.set(CODE_KEY, error.code);
  if (error.hint) metadata.set(HINT_KEY, encodeURIComponent(error.hint));
  if (error.retryAfterMs !== undefined) metadata.set(RETRY_AFTER_KEY, String(Math.round(error.retryAfterMs)));
  return { code: error.grpcStatus, details: error.message, metadata };
}

const codeByStatus: Partial<Record<GrpcStatus, ErrorCode>> = {
  [GrpcStatus.INVALID_ARGUMENT]: ErrorCode.InvalidArgument,
  [GrpcStatus.FAILED_PRECONDITION]: ErrorCode.InvalidConfig,
  [GrpcStatus.RESOURCE_EXHAUSTED]: ErrorCode.RateLimited,
  [GrpcStatus.UNAVAILABLE]: ErrorCode.Unavailable,
  [GrpcStatus.UNAUTHENTICATED]: ErrorCode.Unauthenticated,
  [GrpcStatus.PERMISSION_DENIED]: ErrorCode.PermissionDenied,
  [GrpcStatus.NOT_FOUND]: ErrorCode.NotFound,
  [GrpcStatus.DEADLINE_EXCEEDED]: ErrorCode.DeadlineExceeded,
  [GrpcStatus.CANCELLED]: ErrorCode.Cancelled,
  [GrpcStatus.ABORTED]: ErrorCode.Rejected,
};

function first(metadata: Metadata | undefined, key: string): string | undefined {
  const value = metadata?.get(key)[0];
  return typeof value === "string" ? value : undefined;
}

/**
 * Turns a failed gRPC call into the ChannelError the plugin threw: the
 * trailers give the exact code when the plugin uses this SDK; otherwise the
 * status code decides, so plugins in other languages map sensibly too.
 */
export function fromServiceError(error: ServiceError, context: string): ChannelError {
  const sent = first(error.metadata, CODE_KEY);
  const code = isErrorCode(sent) ? sent : (codeByStatus[error.code as GrpcStatus] ?? ErrorCode.Internal);
  const hint = first(error.metadata, HINT_KEY);
  const retryAfter = Number(first(error.metadata, RETRY_AFTER_KEY));
  const details = error.details || GrpcStatus[error.code] || "unknown error";
  return createChannelError(code, `${context}: ${details}`, {
    cause: error,
    hint: hint === undefined ? undefined : safeDecode(hint),
    retryAfterMs: Number.isFinite(retryAfter) ? retryAfter : undefined,
  });
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
