/** Stable codes of the webhook server's error responses. */
export const WebhookErrorCode = {
  InvalidBody: "ERR_INVALID_BODY",
  MissingField: "ERR_MISSING_FIELD",
  Unauthenticated: "ERR_UNAUTHENTICATED",
  NotFound: "ERR_NOT_FOUND",
  SourceNotConfigured: "ERR_SOURCE_NOT_CONFIGURED",
  MethodNotAllowed: "ERR_METHOD_NOT_ALLOWED",
  RequestTimeout: "ERR_REQUEST_TIMEOUT",
  PayloadTooLarge: "ERR_PAYLOAD_TOO_LARGE",
  UnsupportedMediaType: "ERR_UNSUPPORTED_MEDIA_TYPE",
  HeadersTooLarge: "ERR_HEADERS_TOO_LARGE",
  Unavailable: "ERR_UNAVAILABLE",
  DeliveryInProgress: "ERR_DELIVERY_IN_PROGRESS",
} as const;

/** One of {@link WebhookErrorCode}. */
export type WebhookErrorCode = (typeof WebhookErrorCode)[keyof typeof WebhookErrorCode];

/**
 * A request the server refuses. `message` is sent to the client, so it must
 * never contain a secret or an expected signature.
 */
export class WebhookError extends Error {
  override readonly name = "WebhookError";
  constructor(
    readonly status: number,
    readonly code: WebhookErrorCode,
    message: string,
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}

/** 400: the body is not what the source sends, or lacks a field the mapping needs. */
export function badRequest(message: string, code: WebhookErrorCode = WebhookErrorCode.InvalidBody): WebhookError {
  return new WebhookError(400, code, message);
}

/** 401: missing or invalid signature, token or timestamp. */
export function unauthenticated(message: string): WebhookError {
  return new WebhookError(401, WebhookErrorCode.Unauthenticated, message);
}
