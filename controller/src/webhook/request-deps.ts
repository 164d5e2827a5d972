import type { SourceId } from "../config/webhook-config.js";
import type { DeliverDeps } from "./deliver.js";
import type { WebhookMetrics } from "./metrics.js";
import type { WebhookSource } from "./parsing/source.js";

/** Everything the request handler needs. */
export interface RequestDeps extends DeliverDeps {
  sources: ReadonlyMap<SourceId, WebhookSource>;
  maxBodyBytes: number;
  metrics: WebhookMetrics;
  /** Serve GET /metrics. */
  exposeMetrics: boolean;
  now: () => number;
  /** True once shutdown began: answers close their connection. */
  stopping: () => boolean;
}
