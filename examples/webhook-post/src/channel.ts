import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { defineChannel } from "@errand/channel-sdk";
import { createHttpClient, type HttpClient } from "@errand/channel-sdk/helpers";
import { resolveWebhookUrl, type WebhookPostConfig, webhookPostConfigSchema } from "./config.js";
import { completePayload, notifyPayload, startPayload, type WebhookPayload } from "./payload.js";

const pkg = createRequire(import.meta.url)("../package.json") as { version: string };

interface State {
  config: WebhookPostConfig;
  http: HttpClient;
}

async function post(state: State, payload: WebhookPayload, signal: AbortSignal) {
  // The SDK client retries 429/5xx within a 4 s budget (the call target is
  // 5 s) and turns every failure into a typed error without printing the URL
  // when it came from a secret. An attempt that timed out may still have
  // arrived, so every attempt of one notification carries the same
  // Idempotency-Key: a receiver that keeps the keys it saw shows it once.
  const response = await state.http.postJson<{ id?: unknown }>(state.config.url, payload, {
    signal,
    headers: { ...state.config.headers, "idempotency-key": randomUUID() },
    secretUrl: state.config.urlIsSecret,
  });
  const id = response.json?.id;
  return typeof id === "string" || typeof id === "number" ? { deliveryId: String(id) } : {};
}

/** A channel that POSTs every notification as JSON to one URL. */
export const webhookPost = defineChannel({
  name: "webhook_post",
  version: pkg.version,
  configSchema: webhookPostConfigSchema,
  init(settings, secrets): State {
    const parsed = resolveWebhookUrl(settings, secrets);
    return {
      config: parsed,
      http: createHttpClient({ userAgent: `errand-webhook-post/${pkg.version}`, redact: () => Object.values(secrets) }),
    };
  },
  notifyStart: (ticket, ctx) => post(ctx.state, startPayload(ticket, ctx.engine, ctx.taskRunId), ctx.signal),
  notify: (message, ticket, ctx) => post(ctx.state, notifyPayload(message, ticket, ctx.taskRunId), ctx.signal),
  notifyComplete: (ticket, result, ctx) => post(ctx.state, completePayload(ticket, result, ctx.taskRunId), ctx.signal),
});
