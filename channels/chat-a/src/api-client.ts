import type { Logger } from "@errand/channel-sdk";
import { createHttpClient, type HttpClient } from "@errand/channel-sdk/helpers";
import type { ChatAConfig } from "./config.js";
import type { ChatAMessage } from "./render/blocks.js";
import { type SlackErrorBody, slackError } from "./slack-errors.js";

/** What a delivered message is known by. */
export interface PostedMessage {
  channel: string;
  /** The message's timestamp id; absent when a test endpoint does not say. */
  ts: string | undefined;
}

/** One `chat.postMessage` call: no retries, no throttling (the channel does both). */
export interface ChatAClient {
  postMessage(message: ChatAMessage, signal: AbortSignal, timeoutMs?: number): Promise<PostedMessage>;
}

/** The exact JSON body of `chat.postMessage` for `message`. */
export function postMessageBody(channelId: string, message: ChatAMessage) {
  return {
    channel: channelId,
    text: message.text,
    blocks: message.blocks,
    // Links to tickets and pull requests need no previews; they would bury the message.
    unfurl_links: false,
    unfurl_media: false,
  };
}

/** Per-attempt timeout: two attempts fit in the 5-second call target. */
const ATTEMPT_TIMEOUT_MS = 2000;

/**
 * A client of `chat.postMessage`: JSON body in UTF-8, the token as a Bearer
 * header (https://docs.slack.dev/apis/web-api#posting_json). HTTP failures
 * come back as the SDK's typed errors (429 with `retryAfterMs` from
 * `Retry-After`); `ok:false` answers through {@link slackError}.
 */
export function createChatAClient(config: ChatAConfig, logger: Logger, http?: HttpClient): ChatAClient {
  const client =
    http
    ?? createHttpClient({
      baseUrl: `${config.apiBaseUrl}/`,
      headers: { authorization: `Bearer ${config.token}` },
      redact: [config.token],
      retry: false,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      userAgent: "errand-channel-chat-a",
    });
  return {
    async postMessage(message, signal, timeoutMs) {
      const body = postMessageBody(config.channelId, message);
      const response = await client.postJson<Record<string, unknown>>("chat.postMessage", body, { signal, timeoutMs });
      const json = response.json;
      if (!json || typeof json !== "object") {
        throw slackError({ ok: false, error: "invalid_response" }, config);
      }
      if (json.ok !== true) throw slackError(json as unknown as SlackErrorBody, config);
      const warning = json.warning ?? (json.response_metadata as { warnings?: unknown } | undefined)?.warnings;
      if (warning) logger.warn("the platform accepted the message with a warning", { warning });
      return {
        channel: typeof json.channel === "string" ? json.channel : config.channelId,
        ts: typeof json.ts === "string" ? json.ts : undefined,
      };
    },
  };
}
