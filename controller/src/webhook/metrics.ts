import { Counter, Histogram, Registry } from "prom-client";

/** How a request ended, as a metric label and a log field. */
export type Outcome =
  | "accepted"
  | "ignored"
  | "duplicate"
  | "unauthenticated"
  | "bad_request"
  | "not_found"
  | "not_configured"
  | "method_not_allowed"
  | "payload_too_large"
  | "unsupported_media_type"
  | "request_timeout"
  | "headers_too_large"
  | "in_flight"
  | "unavailable"
  | "client_gone"
  | "internal_error";

/** Label for requests that matched no source. */
export const NO_SOURCE = "none";

/** Prometheus instruments of the webhook server. */
export interface WebhookMetrics {
  readonly registry: Registry;
  /** Records one finished request. */
  observe(source: string, outcome: Outcome, seconds: number, tickets: number): void;
}

/**
 * Creates the counters and histogram (names in docs/webhooks.md), registered
 * in `registry` or a fresh one so several servers can live in one process.
 */
export function createWebhookMetrics(registry: Registry = new Registry()): WebhookMetrics {
  const labelNames = ["source", "outcome"] as const;
  const requests = new Counter({
    name: "errand_webhook_requests_total",
    help: "Webhook requests by source and outcome.",
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "errand_webhook_request_duration_seconds",
    help: "Time from request to answer, by source and outcome.",
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const tickets = new Counter({
    name: "errand_webhook_tickets_total",
    help: "Tickets handed on, by source.",
    labelNames: ["source"],
    registers: [registry],
  });
  // Label lookups cost more than the increments; cache the children.
  const children = new Map<
    string,
    { count: { inc(): void }; time: { observe(v: number): void }; tickets: { inc(n: number): void } }
  >();
  return {
    registry,
    observe(source, outcome, seconds, count) {
      const key = `${source}\u0000${outcome}`;
      let child = children.get(key);
      if (!child) {
        child = {
          count: requests.labels(source, outcome),
          time: duration.labels(source, outcome),
          tickets: tickets.labels(source),
        };
        children.set(key, child);
      }
      child.count.inc();
      child.time.observe(seconds);
      if (count > 0) child.tickets.inc(count);
    },
  };
}

/** The outcome label of an error response status. */
export function outcomeOfStatus(status: number, code?: string): Outcome {
  switch (status) {
    case 400:
      return "bad_request";
    case 401:
      return "unauthenticated";
    case 404:
      return code === "ERR_SOURCE_NOT_CONFIGURED" ? "not_configured" : "not_found";
    case 405:
      return "method_not_allowed";
    case 408:
      return "request_timeout";
    case 413:
      return "payload_too_large";
    case 415:
      return "unsupported_media_type";
    case 431:
      return "headers_too_large";
    case 503:
      return code === "ERR_DELIVERY_IN_PROGRESS" ? "in_flight" : "unavailable";
    default:
      return "internal_error";
  }
}
