import { type ChannelError, createChannelError, isChannelError } from "@errand/channel-sdk";
import { createHttpClient, type HttpClient, type HttpResponse } from "@errand/channel-sdk/helpers";
import type { ChatBConfig } from "./config.js";
import type { ChatBMessage } from "./render/message.js";

/** What a delivered message is known by. */
export interface ExecutedMessage {
  /** The message id; absent when a test endpoint does not say. */
  id: string | undefined;
  response: HttpResponse;
}

/** One execute-webhook call: no retries, no rate limiting (the channel does both). */
export interface ChatBClient {
  execute(message: ChatBMessage, signal: AbortSignal, timeoutMs?: number): Promise<ExecutedMessage>;
}

/** Per-attempt timeout: two attempts fit in the 5-second call target. */
const ATTEMPT_TIMEOUT_MS = 2000;
const BUG_HINT =
  "this is a bug in the chat_b channel (it should never build such a message); please report it with this error";

/**
 * A client of the execute-webhook endpoint: `POST <webhook URL>?wait=true`
 * with a JSON body, answered 200 with the message
 * (https://discord.com/developers/docs/resources/webhook#execute-webhook).
 * The whole URL is secret: errors show only its origin.
 */
export function createChatBClient(config: ChatBConfig, http?: HttpClient): ChatBClient {
  const client =
    http
    ?? createHttpClient({
      secretUrl: true,
      redact: [config.webhookUrl],
      retry: false,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      userAgent: "errand-channel-chat-b",
    });
  return {
    async execute(message, signal, timeoutMs) {
      let response: HttpResponse<Record<string, unknown>>;
      try {
        response = await client.postJson<Record<string, unknown>>(config.webhookUrl, message, {
          signal,
          timeoutMs,
          query: { wait: "true" },
        });
      } catch (error) {
        throw explain(error, config);
      }
      const id = response.json?.id;
      return { id: typeof id === "string" ? id : undefined, response };
    },
  };
}

/** Adds what the user should do to the SDK's HTTP error; the message already hides the URL. */
function explain(error: unknown, config: ChatBConfig): unknown {
  if (!isChannelError(error)) return error;
  const hint = hintFor(error, config);
  if (hint === undefined) return error;
  return createChannelError(error.code, `chat_b: executing the webhook failed: ${error.message}`, {
    cause: error,
    hint,
    retryAfterMs: error.retryAfterMs,
  });
}

function hintFor(error: ChannelError, config: ChatBConfig): string | undefined {
  const secret = JSON.stringify(config.webhookUrlSecret);
  switch (error.code) {
    case "ERR_NOT_FOUND":
    case "ERR_UNAUTHENTICATED":
      return `the webhook was deleted or the URL in the secret ${secret} is wrong: create a webhook (channel settings → Integrations → Webhooks), copy its URL into the secret`;
    case "ERR_PERMISSION_DENIED":
      return "the platform refused the webhook access to its channel; check the webhook's channel and the server's permissions";
    case "ERR_INVALID_ARGUMENT":
      return BUG_HINT;
    default:
      return undefined;
  }
}
