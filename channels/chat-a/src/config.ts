import { type ChannelSecrets, InvalidConfigError, validateConfig } from "@errand/channel-sdk";
import { credentialTextProblem, digestThresholdSchema } from "@errand/chat-kit";
import { z } from "zod";

/** Where chat A's web API lives unless `api_base_url` says otherwise. */
export const DEFAULT_API_BASE_URL = "https://slack.com/api";

/**
 * The platform allows about one message per second per channel
 * (https://docs.slack.dev/apis/web-api/rate-limits: "chat.postMessage
 * generally allows posting one message per second per channel").
 */
export const DEFAULT_MIN_INTERVAL_MS = 1000;

const KNOWN_KEYS = ["channel_id", "token_secret", "api_base_url", "min_interval_ms", "digest_threshold"];
const INLINE_TOKEN_KEYS = ["token", "bot_token"];
// Conversation IDs are upper-case letters and digits, starting with C
// (public), G (private/legacy group) or D (direct message).
const CHANNEL_ID = /^[CGD][A-Z0-9]{6,}$/;

/** A required, trimmed, non-empty string; `what` tells what to set it to. */
const requiredString = (what: string) =>
  z
    .string({
      error: (issue) => (issue.input === undefined ? `is required: set it to ${what}` : `must be a string: ${what}`),
    })
    .trim()
    .min(1, `is empty: set it to ${what}`);

const channelId = requiredString("the target channel's ID, e.g. C0123456789").superRefine((id, ctx) => {
  if (id.startsWith("#") || /[a-z\s]/.test(id)) {
    ctx.addIssue({
      code: "custom",
      message: `${JSON.stringify(id)} looks like a channel name, not a channel ID: use the channel's ID (e.g. C0123456789): open the channel, click its name, and copy the ID shown at the bottom of the About tab`,
    });
  } else if (!CHANNEL_ID.test(id)) {
    ctx.addIssue({
      code: "custom",
      message: `${JSON.stringify(id)} is not a channel ID: a channel ID starts with C, G or D followed by upper-case letters and digits, e.g. C0123456789`,
    });
  }
});

const apiBaseUrl = z
  .string({ error: `is not a valid URL: use an absolute URL such as ${DEFAULT_API_BASE_URL}, or leave it out` })
  .transform((value, ctx) => {
    const url = URL.canParse(value) ? new URL(value) : undefined;
    const problem = !url
      ? `is not a valid URL: use an absolute URL such as ${DEFAULT_API_BASE_URL}, or leave it out`
      : url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname))
        ? "must use https (plain http is allowed only for localhost): the bot token travels in every request; never send it unencrypted"
        : url.search || url.hash || url.username || url.password
          ? `must not carry a query, fragment or credentials: give just the API root, such as ${DEFAULT_API_BASE_URL}`
          : undefined;
    if (problem === undefined && url) return url.href.replace(/\/+$/, "");
    ctx.addIssue({ code: "custom", message: problem ?? "is not a valid URL" });
    return z.NEVER;
  })
  .default(DEFAULT_API_BASE_URL);

const INTERVAL_PROBLEM =
  "must be an integer between 0 and 60000: leave it out to use the platform's rate of one message per second per channel";
const minIntervalMs = z
  .int({ error: INTERVAL_PROBLEM })
  .min(0, INTERVAL_PROBLEM)
  .max(60_000, INTERVAL_PROBLEM)
  .default(DEFAULT_MIN_INTERVAL_MS);

export { DEFAULT_DIGEST_THRESHOLD } from "@errand/chat-kit";

/**
 * chat_a's `config`, as a Standard Schema (zod): `channel_id`,
 * `token_secret`, optional `api_base_url`, `min_interval_ms` and
 * `digest_threshold`. Its output
 * is {@link ChatASettings}. Every refusal names the key, what is wrong and
 * how to fix it; an inline token is refused without echoing it.
 */
export const chatAConfigSchema = z
  .strictObject(
    {
      channel_id: channelId,
      token_secret: requiredString("the name of the secret that holds the bot token"),
      api_base_url: apiBaseUrl,
      min_interval_ms: minIntervalMs,
      digest_threshold: digestThresholdSchema,
    },
    {
      error: (issue) => {
        if (issue.code !== "unrecognized_keys") return undefined;
        if (issue.keys.some((key) => INLINE_TOKEN_KEYS.includes(key))) {
          return "an inline token in config is refused: store the bot token in a secret and name that secret in token_secret";
        }
        return `unknown key(s) ${issue.keys.map((key) => JSON.stringify(key)).join(", ")}: known keys are ${KNOWN_KEYS.join(", ")}`;
      },
    },
  )
  .superRefine((config, ctx) => {
    // A faster pace would only earn 429s (and risk the token) from the real platform.
    if (
      typeof config.min_interval_ms === "number"
      && config.min_interval_ms < DEFAULT_MIN_INTERVAL_MS
      && config.api_base_url === DEFAULT_API_BASE_URL
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["min_interval_ms"],
        message: `below ${DEFAULT_MIN_INTERVAL_MS} is only allowed with a custom api_base_url: the platform allows one message per second per channel; remove min_interval_ms`,
      });
    }
  })
  .transform((config) => ({
    /** Target channel ID, e.g. `C0123456789`. */
    channelId: config.channel_id,
    /** Name of the secret that holds the bot token (for messages; never the value). */
    tokenSecret: config.token_secret,
    /** API base URL without a trailing slash. */
    apiBaseUrl: config.api_base_url,
    /** Minimum spacing of two messages to the channel, in ms. */
    minIntervalMs: config.min_interval_ms,
    /** When more notifications than this wait for the channel, the next message is a digest of them. */
    digestThreshold: config.digest_threshold,
  }));

/** chat_a's config as {@link chatAConfigSchema} returns it, before the token is resolved. */
export type ChatASettings = z.output<typeof chatAConfigSchema>;

/** A validated chat_a config, with the bot token resolved. */
export interface ChatAConfig extends ChatASettings {
  /** The bot token itself. Never log it. */
  token: string;
}

/**
 * Resolves the bot token that validated settings name. Throws
 * `InvalidConfigError` naming the secret to fix; never echoes its value.
 */
export function resolveChatAToken(settings: ChatASettings, secrets: ChannelSecrets): ChatAConfig {
  const { tokenSecret } = settings;
  const token = secrets[tokenSecret];
  if (token === undefined || token.trim() === "") {
    throw new InvalidConfigError(
      `chat_a: the secret ${JSON.stringify(tokenSecret)} named by token_secret was not provided or is empty`,
      {
        hint: "create the secret with the bot token (xoxb-…) and make it available to the controller",
      },
    );
  }
  checkToken(token, tokenSecret);
  return { ...settings, token: token.trim() };
}

/**
 * Validates a chat_a `config` object with {@link chatAConfigSchema} and
 * resolves its token secret, as the channel's start does. Rejects with one
 * `InvalidConfigError` listing every problem of the config.
 */
export async function parseChatAConfig(config: unknown, secrets: ChannelSecrets): Promise<ChatAConfig> {
  return resolveChatAToken(await validateConfig(chatAConfigSchema, config, { label: "chat_a" }), secrets);
}

/**
 * Refuses a token that can never authenticate, at start rather than on every
 * notification: in the Authorization header a line break, NUL or non-ASCII
 * character makes each request fail before it is sent, and no real token has
 * spaces or quotes. Whitespace around the token (a file's trailing newline)
 * is dropped, as before. Shows where the character is, never the token.
 */
function checkToken(raw: string, secretName: string): void {
  const problem = credentialTextProblem(raw);
  if (problem === undefined) return;
  throw new InvalidConfigError(
    `chat_a: the secret ${JSON.stringify(secretName)} named by token_secret ${problem}, so it cannot be a bot token`,
    {
      hint: `copy the bot token (xoxb-…) again from OAuth & Permissions and store it in the secret ${JSON.stringify(secretName)} alone, without quotes, spaces or line breaks`,
    },
  );
}

/** True for localhost names and loopback addresses. */
export function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
