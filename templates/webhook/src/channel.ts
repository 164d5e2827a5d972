import { createRequire } from "node:module";
import { defineChannel, type NotifyContext, type Ticket } from "@errand/channel-sdk";
import {
  createHttpClient,
  createThrottle,
  formatCost,
  formatDuration,
  type HttpClient,
  ticketLink,
  truncate,
} from "@errand/channel-sdk/helpers";
import { configSchema, resolveConfig, type WebhookConfig } from "./config.js";

const pkg = createRequire(import.meta.url)("../package.json") as { version: string };

/** Most characters of one message the target accepts. Adjust to your chat service. */
const MAX_TEXT = 2000;

interface State {
  config: WebhookConfig;
  http: HttpClient;
}

function link(ticket: Ticket): string {
  const { url, label } = ticketLink(ticket);
  return url ? `[${label}](${url})` : label;
}

async function post(ctx: NotifyContext<State>, text: string) {
  const { config, http } = ctx.state;
  // The SDK client retries 429 (after Retry-After, or the JSON retry_after)
  // and 5xx within a 4 s budget, ending with the target's last error when no
  // attempt fits any more; it aborts at the call's deadline, fails at once
  // when a Retry-After outlasts the budget, and never prints the secret URL.
  await http.postJson(
    config.webhookUrl,
    { text: truncate(text, MAX_TEXT) },
    {
      signal: ctx.signal,
      throttleKey: config.webhookUrl,
    },
  );
  return {};
}

/** The {{name}} channel: posts every notification to an incoming webhook. */
export const channel = defineChannel({
  name: "{{name}}",
  version: pkg.version,
  configSchema,
  init(settings, secrets): State {
    return {
      config: resolveConfig(settings, secrets),
      http: createHttpClient({
        secretUrl: true,
        userAgent: `{{packageName}}/${pkg.version}`,
        // Incoming webhooks allow about one message per second, counted from
        // the previous answer: a first request slowed on its way (a new
        // connection, a busy machine) would otherwise reach the service less
        // than a second before the next.
        throttle: createThrottle({ intervalMs: 1000, spacing: "completion" }),
      }),
    };
  },
  notify: (message, ticket, ctx) => post(ctx, `${message}\n${link(ticket)}`),
  notifyStart: (ticket, ctx) =>
    post(ctx, `🚀 Agent started working on ${link(ticket)} using ${ctx.engine || "the default engine"}`),
  notifyComplete: (ticket, result, ctx) => {
    const facts = [formatDuration(result.durationMs), formatCost(result.costUsd)].filter(Boolean).join(" · ");
    const text = result.success
      ? `✅ Completed ${link(ticket)}${result.pullRequestUrl ? `\nPull request: ${result.pullRequestUrl}` : ""}${facts ? `\n${facts}` : ""}${result.summary ? `\n${result.summary}` : ""}`
      : `❌ Failed on ${link(ticket)}${result.failureReason ? `\nReason: ${result.failureReason}` : ""}`;
    return post(ctx, text);
  },
});
