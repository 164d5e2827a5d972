import { type ChannelConfig, type ChannelSecrets, InvalidConfigError } from "@errand/channel-sdk";
import { credentialTextProblem } from "@errand/channel-sdk/helpers";

/** Where chat A's web API lives unless `api_base_url` says otherwise. */
export const DEFAULT_API_BASE_URL = "https://slack.com/api";

/**
 * The platform allows about one message per second per channel
 * (https://docs.slack.dev/apis/web-api/rate-limits: "chat.postMessage
 * generally allows posting one message per second per channel").
 */
export const DEFAULT_MIN_INTERVAL_MS = 1000;

/** A validated chat_a config, with the bot token resolved. */
export interface ChatAConfig {
  /** Target channel ID, e.g. `C0123456789`. */
  channelId: string;
  /** Name of the secret that holds the bot token (for messages; never the value). */
  tokenSecret: string;
  /** The bot token itself. Never log it. */
  token: string;
  /** API base URL without a trailing slash. */
  apiBaseUrl: string;
  /** Minimum spacing of two messages to the channel, in ms. */
  minIntervalMs: number;
}

const KNOWN_KEYS = new Set(["channel_id", "token_secret", "api_base_url", "min_interval_ms"]);
// Conversation IDs are upper-case letters and digits, starting with C
// (public), G (private/legacy group) or D (direct message).
const CHANNEL_ID = /^[CGD][A-Z0-9]{6,}$/;

/**
 * Validates a chat_a `config` object and resolves its token secret. Throws
 * `InvalidConfigError` naming the key to fix; never echoes a secret value.
 */
export function parseChatAConfig(config: ChannelConfig, secrets: ChannelSecrets): ChatAConfig {
  if ("token" in config || "bot_token" in config) {
    throw new InvalidConfigError("chat_a: an inline token in config is refused", {
      hint: "store the bot token in a secret and name that secret in token_secret",
    });
  }
  const unknown = Object.keys(config).filter((key) => !KNOWN_KEYS.has(key));
  if (unknown.length > 0) {
    throw new InvalidConfigError(`chat_a: unknown config key(s) ${unknown.map((k) => JSON.stringify(k)).join(", ")}`, {
      hint: `known keys: ${[...KNOWN_KEYS].join(", ")}`,
    });
  }
  const channelId = requireString(config, "channel_id", "the target channel's ID, e.g. C0123456789");
  checkChannelId(channelId);
  const tokenSecret = requireString(config, "token_secret", "the name of the secret that holds the bot token");
  const token = secrets[tokenSecret];
  if (token === undefined || token.trim() === "") {
    throw new InvalidConfigError(`chat_a: the secret ${JSON.stringify(tokenSecret)} named by token_secret was not provided or is empty`, {
      hint: "create the secret with the bot token (xoxb-…) and make it available to the controller",
    });
  }
  checkToken(token, tokenSecret);
  const apiBaseUrl = parseBaseUrl(config.api_base_url);
  const minIntervalMs = parseInterval(config.min_interval_ms, apiBaseUrl);
  return { channelId, tokenSecret, token: token.trim(), apiBaseUrl, minIntervalMs };
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
  throw new InvalidConfigError(`chat_a: the secret ${JSON.stringify(secretName)} named by token_secret ${problem}, so it cannot be a bot token`, {
    hint: `copy the bot token (xoxb-…) again from OAuth & Permissions and store it in the secret ${JSON.stringify(secretName)} alone, without quotes, spaces or line breaks`,
  });
}

function requireString(config: ChannelConfig, key: string, what: string): string {
  const value = config[key];
  if (typeof value !== "string" || value.trim() === "") {
    throw new InvalidConfigError(`chat_a: config.${key} is required: ${what}`, { hint: `set ${key} in the channel's config block` });
  }
  return value.trim();
}

function checkChannelId(channelId: string): void {
  if (channelId.startsWith("#") || /[a-z\s]/.test(channelId)) {
    throw new InvalidConfigError(`chat_a: channel_id ${JSON.stringify(channelId)} looks like a channel name, not a channel ID`, {
      hint: "use the channel's ID (e.g. C0123456789): open the channel, click its name, and copy the ID shown at the bottom of the About tab",
    });
  }
  if (!CHANNEL_ID.test(channelId)) {
    throw new InvalidConfigError(`chat_a: channel_id ${JSON.stringify(channelId)} is not a channel ID`, {
      hint: "a channel ID starts with C, G or D followed by upper-case letters and digits, e.g. C0123456789",
    });
  }
}

function parseBaseUrl(value: unknown): string {
  if (value === undefined) return DEFAULT_API_BASE_URL;
  let url: URL;
  try {
    if (typeof value !== "string") throw new TypeError("not a string");
    url = new URL(value);
  } catch {
    throw new InvalidConfigError("chat_a: api_base_url is not a valid URL", {
      hint: `use an absolute URL such as ${DEFAULT_API_BASE_URL}, or leave it out`,
    });
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname))) {
    throw new InvalidConfigError("chat_a: api_base_url must use https (plain http is allowed only for localhost)", {
      hint: "the bot token travels in every request; never send it unencrypted",
    });
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new InvalidConfigError("chat_a: api_base_url must not carry a query, fragment or credentials", {
      hint: `give just the API root, such as ${DEFAULT_API_BASE_URL}`,
    });
  }
  return url.href.replace(/\/+$/, "");
}

function parseInterval(value: unknown, apiBaseUrl: string): number {
  if (value === undefined) return DEFAULT_MIN_INTERVAL_MS;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 60_000) {
    throw new InvalidConfigError("chat_a: min_interval_ms must be an integer between 0 and 60000", {
      hint: "leave it out to use the platform's rate of one message per second per channel",
    });
  }
  // A faster pace would only earn 429s (and risk the token) from the real platform.
  if (value < DEFAULT_MIN_INTERVAL_MS && apiBaseUrl === DEFAULT_API_BASE_URL) {
    throw new InvalidConfigError(`chat_a: min_interval_ms below ${DEFAULT_MIN_INTERVAL_MS} is only allowed with a custom api_base_url`, {
      hint: "the platform allows one message per second per channel; remove min_interval_ms",
    });
  }
  return value;
}

/** True for localhost names and loopback addresses. */
export function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
