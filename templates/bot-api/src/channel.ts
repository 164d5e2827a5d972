import { createRequire } from "node:module";
import { defineChannel, type NotifyContext, RejectedError, type Ticket } from "@errand/channel-sdk";
import {
  createHttpClient,
  createThrottle,
  formatCost,
  formatDuration,
  type HttpClient,
  ticketLink,
  truncate,
} from "@errand/channel-sdk/helpers";
import { type BotApiConfig, configSchema, resolveConfig } from "./config.js";

const pkg = createRequire(import.meta.url)("../package.json") as { version: string };

/** Most characters of one message the API accepts. Adjust to your chat service. */
const MAX_TEXT = 3000;

interface State {
  config: BotApiConfig;
  http: HttpClient;
}

interface PostMessageResponse {
  ok?: boolean;
  ts?: string;
  error?: string;
}

function link(ticket: Ticket): string {
  const { url, label } = ticketLink(ticket);
  return url ? `<${url}|${label}>` : label;
}

async function post(ctx: NotifyContext<State>, text: string) {
  const { config, http } = ctx.state;
  // Retries 429 (after Retry-After) and 5xx within a 4 s budget, each attempt
  // timed to fit it; when no attempt fits any more, the call fails with the
  // service's last error. The throttle keeps to one message per second per
  // channel; a channel paused by a Retry-After longer than the budget fails
  // at once with ERR_RATE_LIMITED instead of waiting for the deadline.
  const response = await http.postJson<PostMessageResponse>(
    "chat.postMessage",
    { channel: config.channelId, text: truncate(text, MAX_TEXT) },
    { signal: ctx.signal, throttleKey: config.channelId },
  );
  // Web APIs of this kind answer most errors with 200 and ok:false.
  if (response.json?.ok === false) {
    throw new RejectedError(`chat.postMessage failed: ${response.json.error ?? "unknown error"}`, {
      hint: "check that the bot is invited to the channel and the token has the chat:write scope",
    });
  }
  return response.json?.ts ? { deliveryId: response.json.ts } : {};
}

/** The {{name}} channel: posts through a chat service's web API with a bot token. */
export const channel = defineChannel({
  name: "{{name}}",
  version: pkg.version,
  configSchema,
  init(settings, secrets): State {
    const parsed = resolveConfig(settings, secrets);
    return {
      config: parsed,
      http: createHttpClient({
        baseUrl: parsed.apiBaseUrl,
        headers: { authorization: `Bearer ${parsed.token}` },
        userAgent: `{{packageName}}/${pkg.version}`,
        // Counted from the previous answer, not the previous send: a first
        // request slowed on its way (a new connection, a busy machine) would
        // otherwise reach the service less than a second before the next.
        throttle: createThrottle({ intervalMs: 1000, spacing: "completion" }),
      }),
    };
  },
  notify: (message, ticket, ctx) => post(ctx, `${message}\n${link(ticket)}`),
  notifyStart: (ticket, ctx) =>
    post(ctx, `:rocket: Agent started working on ${link(ticket)} using ${ctx.engine || "the default engine"}`),
  notifyComplete: (ticket, result, ctx) => {
    const facts = [formatDuration(result.durationMs), formatCost(result.costUsd)].filter(Boolean).join(" · ");
    const text = result.success
      ? `:white_check_mark: Completed ${link(ticket)}${result.pullRequestUrl ? `\nPull request: ${result.pullRequestUrl}` : ""}${facts ? `\n${facts}` : ""}${result.summary ? `\n${result.summary}` : ""}`
      : `:x: Failed on ${link(ticket)}${result.failureReason ? `\nReason: ${result.failureReason}` : ""}`;
    return post(ctx, text);
  },
});
