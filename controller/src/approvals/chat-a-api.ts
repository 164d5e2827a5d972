import { ControllerError, ControllerErrorCode } from "../errors.js";

/** Bound of an update: the one after a click must fit well inside chat A's 3 s. */
const UPDATE_TIMEOUT_MS = 2500;
/** Bound of a post: nothing waits on it but the sweep that announces the run. */
const POST_TIMEOUT_MS = 10_000;

/** Where and as whom the approval flow talks to chat A (a `notifications.channels` entry with backend chat_a). */
export interface ChatATarget {
  /** The channel's `api_base_url`, without a trailing slash. */
  apiBaseUrl: string;
  /** The bot token (the value of the entry's `token_secret`). */
  token: string;
  /** The entry's `channel_id`: where approval messages are posted. */
  channelId: string;
}

/** A message as chat A's `chat.postMessage` and `chat.update` take it. */
export interface ChatAContent {
  text: string;
  blocks: readonly Record<string, unknown>[];
}

/** The two calls of chat A's web API the approval flow makes. */
export interface ChatAApi {
  /** Posts to the target's channel; resolves with where the message is: the channel's id and the message's `ts`. */
  post(content: ChatAContent): Promise<{ channel: string; ts: string }>;
  /** Replaces the message `ts` of `channel`. */
  update(channel: string, ts: string, content: ChatAContent): Promise<void>;
}

/** Chat A's API client of the approval flow: JSON bodies, the token as a Bearer header, one attempt each. */
export function createChatAApi(target: ChatATarget): ChatAApi {
  const call = async (
    method: string,
    body: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<Record<string, unknown>> => {
    const where = `chat A ${method} at ${target.apiBaseUrl}`;
    let json: Record<string, unknown>;
    try {
      const response = await fetch(`${target.apiBaseUrl}/${method}`, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8", authorization: `Bearer ${target.token}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      json = (await response.json()) as Record<string, unknown>;
    } catch (error) {
      throw new ControllerError(ControllerErrorCode.ApprovalMessage, `${where} failed: ${(error as Error).message}`, {
        cause: error,
        hint: "check that the chat_a channel's api_base_url is reachable from the controller",
      });
    }
    if (json?.ok === true) return json;
    const code = typeof json?.error === "string" ? json.error : "no ok in the answer";
    throw new ControllerError(ControllerErrorCode.ApprovalMessage, `${where} was refused: ${code}`, {
      hint: "check the chat_a channel's token_secret (scope chat:write) and channel_id, and that the bot is in the channel",
    });
  };
  return {
    async post(content) {
      const answer = await call(
        "chat.postMessage",
        { channel: target.channelId, ...content, unfurl_links: false },
        POST_TIMEOUT_MS,
      );
      if (typeof answer.ts !== "string") {
        throw new ControllerError(ControllerErrorCode.ApprovalMessage, "chat A chat.postMessage answered no ts", {
          hint: "check that api_base_url points at chat A's web API",
        });
      }
      // chat.update needs the channel's id; channel_id may name the channel otherwise, the answer gives its id.
      const channel = typeof answer.channel === "string" && answer.channel !== "" ? answer.channel : target.channelId;
      return { channel, ts: answer.ts };
    },
    async update(channel, ts, content) {
      await call("chat.update", { channel, ts, ...content }, UPDATE_TIMEOUT_MS);
    },
  };
}
