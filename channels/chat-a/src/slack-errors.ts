import {
  type ChannelError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitedError,
  RejectedError,
  UnauthenticatedError,
  UnavailableError,
} from "@errand/channel-sdk";

/** An `ok:false` answer of `chat.postMessage`. */
export interface SlackErrorBody {
  ok: false;
  error?: string;
  /** With `missing_scope`: the scope the method needs and the token's scopes. */
  needed?: string;
  provided?: string;
  /** With `invalid_blocks` and friends: what was wrong, with JSON pointers. */
  errors?: unknown[];
  response_metadata?: { messages?: string[] };
}

/** Where the error happened, for the message. */
export interface SlackErrorContext {
  channelId: string;
  tokenSecret: string;
}

const BUG_HINT =
  "this is a bug in the chat_a channel (it should never build such a message); please report it with this error";
const AUTH = new Set([
  "not_authed",
  "invalid_auth",
  "account_inactive",
  "token_revoked",
  "token_expired",
  "no_permission",
  "not_allowed_token_type",
]);
const DENIED = new Set([
  "restricted_action",
  "restricted_action_read_only_channel",
  "restricted_action_thread_only_channel",
  "restricted_action_non_threadable_channel",
  "ekm_access_denied",
  "access_denied",
  "team_access_not_granted",
  "is_archived",
]);
const BAD_REQUEST = new Set([
  "msg_too_long",
  "msg_blocks_too_long",
  "invalid_blocks",
  "invalid_blocks_format",
  "no_text",
  "too_many_attachments",
  "invalid_arguments",
  "invalid_json",
  "json_not_object",
  "missing_post_type",
  "invalid_post_type",
  "invalid_charset",
  "invalid_form_data",
  "invalid_arg_name",
  "invalid_array_arg",
  "superfluous_charset",
]);
const TRANSIENT = new Set(["internal_error", "fatal_error", "service_unavailable", "request_timeout"]);

/**
 * Turns the platform's `ok:false` error codes (documented at
 * https://docs.slack.dev/reference/methods/chat.postMessage#errors) into a
 * typed error with a hint. Only transient codes (`internal_error`, ...) and
 * rate limits come back retryable; everything else is final.
 */
export function slackError(body: SlackErrorBody, where: SlackErrorContext): ChannelError {
  const code = typeof body.error === "string" && /^[a-z_]{1,64}$/.test(body.error) ? body.error : "unknown_error";
  const prefix = `chat_a: chat.postMessage to channel ${where.channelId} failed with ${code}`;
  if (AUTH.has(code)) {
    return new UnauthenticatedError(`${prefix}: the bot token was refused`, {
      hint: `check that the secret ${JSON.stringify(where.tokenSecret)} holds a valid, current bot token (xoxb-…) of an installed app`,
    });
  }
  if (code === "missing_scope") {
    const needed = safeWord(body.needed) ?? "chat:write";
    const provided = safeWord(body.provided);
    return new PermissionDeniedError(
      `${prefix}: the bot token lacks the ${needed} scope${provided ? ` (it has: ${provided})` : ""}`,
      {
        hint: "add the chat:write bot token scope under OAuth & Permissions, reinstall the app, and store the new token",
      },
    );
  }
  if (code === "channel_not_found") {
    return new NotFoundError(`${prefix}: the channel does not exist or the bot cannot see it`, {
      hint: "check channel_id (the ID, not the name) and invite the bot to the channel with /invite @<bot name>",
    });
  }
  if (code === "not_in_channel") {
    return new PermissionDeniedError(`${prefix}: the bot is not a member of the channel`, {
      hint: "invite the bot to the channel with /invite @<bot name>",
    });
  }
  if (DENIED.has(code)) {
    return new PermissionDeniedError(`${prefix}: the workspace does not allow this post`, {
      hint:
        code === "is_archived"
          ? "the channel is archived: unarchive it or point channel_id at another channel"
          : "ask a workspace admin whether the bot may post in this channel",
    });
  }
  if (code === "ratelimited" || code === "rate_limited") {
    return new RateLimitedError(`${prefix}: the platform rate-limited the channel`, { retryAfterMs: 1000 });
  }
  if (TRANSIENT.has(code)) {
    return new UnavailableError(`${prefix}: the platform had a transient failure`, {
      hint: "trying again later may work",
    });
  }
  if (BAD_REQUEST.has(code)) {
    const details = describeDetails(body);
    return new InvalidArgumentError(`${prefix}${details ? `: ${details}` : ""}`, { hint: BUG_HINT });
  }
  return new RejectedError(`${prefix}`, { hint: "see the platform's documentation of chat.postMessage errors" });
}

// Only short, token-free words go into messages (a scope list, say).
function safeWord(value: unknown): string | undefined {
  return typeof value === "string" && /^[\w:.,-]{1,200}$/.test(value) ? value : undefined;
}

function describeDetails(body: SlackErrorBody): string {
  const items = Array.isArray(body.errors) ? body.errors : (body.response_metadata?.messages ?? []);
  return items
    .filter((item): item is string => typeof item === "string")
    .slice(0, 5)
    .map((item) => item.slice(0, 200))
    .join("; ");
}
