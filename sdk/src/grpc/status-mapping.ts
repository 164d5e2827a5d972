import { status as GrpcStatus, Metadata, type ServiceError, type StatusObject } from "@grpc/grpc-js";
import { type ChannelError, createChannelError, ErrorCode, isErrorCode } from "../errors.js";
import { truncate } from "../helpers/truncate.js";
import { maskForms, secretForms } from "../secret-mask.js";

// Trailer keys that carry the SDK's own error details across the wire, so a
// host gets back the exact error class the plugin threw, not just a status.
const CODE_KEY = "errand-error-code";
const HINT_KEY = "errand-error-hint";
const RETRY_AFTER_KEY = "errand-retry-after-ms";

/**
 * Most UTF-8 bytes of an error message a plugin sends (the status details).
 * Message and hint travel in HTTP/2 trailers, percent-encoded (up to three
 * times their size), and a grpc-js host accepts header lists of 64 KiB at
 * most: a larger status is refused, the host sees only its deadline, and
 * the connection stays upset for seconds. 8 KiB plus a 2 KiB hint stay far
 * below that even when every character needs escaping.
 */
export const MAX_STATUS_MESSAGE_BYTES = 8 * 1024;
/** Most UTF-8 bytes of an error's hint a plugin sends (the `errand-error-hint` trailer). */
export const MAX_STATUS_HINT_BYTES = 2 * 1024;

/** Options of {@link toStatus}. */
export interface ToStatusOptions {
  /** Secret values masked as `[redacted]` in the message and hint, as the logger masks them. */
  secrets?: Iterable<string>;
}

// A lone surrogate makes encodeURI (grpc-js, for the details) and
// encodeURIComponent (the hint) throw, which would leave the call unanswered.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `raw` with lone surrogates replaced, cut to `limit` UTF-8 bytes (between characters) with a marker that says so. */
function bound(raw: string, limit: number, what: string): string {
  const text = raw.replace(LONE_SURROGATE, "\uFFFD");
  const bytes = Buffer.byteLength(text);
  if (bytes <= limit) return text;
  // A code unit is at least one byte, so the cut lies within the first `limit`
  // code units; the margin keeps the character at the cut whole.
  return truncate(text.slice(0, limit + 64), limit, {
    unit: "bytes",
    ellipsis: `… [${what} truncated: ${bytes} bytes in all]`,
  });
}

/**
 * The gRPC status a plugin answers with for `error`: the message as details,
 * code, hint and Retry-After in trailers. Secrets listed in `options` are
 * masked first, then the message is cut to {@link MAX_STATUS_MESSAGE_BYTES}
 * and the hint to {@link MAX_STATUS_HINT_BYTES}, each with a marker
 * (`… [message truncated: 104857 bytes in all]`), so no error can be too
 * large to send.
 */
export function toStatus(error: ChannelError, options: ToStatusOptions = {}): Partial<StatusObject> {
  const forms = secretForms(options.secrets ?? []);
  const metadata = new Metadata();
  metadata.set(CODE_KEY, error.code);
  if (error.hint) {
    metadata.set(
      HINT_KEY,
      encodeURIComponent(bound(maskForms(String(error.hint), forms), MAX_STATUS_HINT_BYTES, "hint")),
    );
  }
  if (error.retryAfterMs !== undefined) metadata.set(RETRY_AFTER_KEY, String(Math.round(error.retryAfterMs)));
  const details = bound(maskForms(String(error.message), forms), MAX_STATUS_MESSAGE_BYTES, "message");
  return { code: error.grpcStatus, details, metadata };
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
