import { type ChannelConfig, type ChannelSecrets, InvalidConfigError } from "@errand/channel-sdk";
import { credentialTextProblem } from "@errand/channel-sdk/helpers";

/** A validated chat_b config, with the webhook URL resolved. */
export interface ChatBConfig {
  /** Name of the secret that holds the webhook URL (for messages; never the value). */
  webhookUrlSecret: string;
  /** The webhook URL. It is the credential: never log it or put it in an error. */
  webhookUrl: string;
  /** The webhook's id (the path segment before the token): names its rate-limit lane. */
  webhookId: string;
  /** What the URL may be shown as: its origin and "/…". */
  shownUrl: string;
  /** Display name overriding the webhook's own. */
  username: string | undefined;
  /** Avatar image URL overriding the webhook's own. */
  avatarUrl: string | undefined;
}

const KNOWN_KEYS = new Set(["webhook_url_secret", "username", "avatar_url"]);
// Webhook names: 1 to 80 characters, and they "cannot contain" certain
// substrings (https://docs.discord.food/resources/user#usernames-and-nicknames:
// webhook names cannot contain "clyde"; names cannot contain "discord").
const USERNAME_MAX = 80;
const FORBIDDEN_IN_USERNAME = ["clyde", "discord"];
const WEBHOOK_PATH = /\/webhooks\/([^/]+)\/[^/]+\/?$/;

/**
 * Validates a chat_b `config` object and resolves its webhook URL secret.
 * Throws `InvalidConfigError` naming the key to fix; never shows more of the
 * webhook URL than its origin.
 */
export function parseChatBConfig(config: ChannelConfig, secrets: ChannelSecrets): ChatBConfig {
  if ("webhook_url" in config || "url" in config) {
    throw new InvalidConfigError("chat_b: an inline webhook URL in config is refused (the URL itself is the credential)", {
      hint: "store the webhook URL in a secret and name that secret in webhook_url_secret",
    });
  }
  const unknown = Object.keys(config).filter((key) => !KNOWN_KEYS.has(key));
  if (unknown.length > 0) {
    throw new InvalidConfigError(`chat_b: unknown config key(s) ${unknown.map((k) => JSON.stringify(k)).join(", ")}`, {
      hint: `known keys: ${[...KNOWN_KEYS].join(", ")}`,
    });
  }
  const secretName = config.webhook_url_secret;
  if (typeof secretName !== "string" || secretName.trim() === "") {
    throw new InvalidConfigError("chat_b: config.webhook_url_secret is required: the name of the secret that holds the webhook URL", {
      hint: "set webhook_url_secret in the channel's config block",
    });
  }
  const webhookUrlSecret = secretName.trim();
  const raw = secrets[webhookUrlSecret] ?? "";
  if (raw.trim() === "") {
    throw new InvalidConfigError(`chat_b: the secret ${JSON.stringify(webhookUrlSecret)} named by webhook_url_secret was not provided or is empty`, {
      hint: "create the secret with the webhook URL and make it available to the controller",
    });
  }
  const { url, id, shown } = parseWebhookUrl(raw, webhookUrlSecret);
  return {
    webhookUrlSecret,
    webhookUrl: url,
    webhookId: id,
    shownUrl: shown,
    username: parseUsername(config.username),
    avatarUrl: parseAvatarUrl(config.avatar_url),
  };
}

/**
 * Refuses a webhook URL with characters a copied URL never has. The URL
 * parser would not: it silently drops line breaks and tabs and
 * percent-encodes spaces, NUL and non-ASCII characters, so such a URL passed
 * and every notification then failed with "Invalid Webhook Token" or
 * "Unknown Webhook". Whitespace around the URL (a file's trailing newline) is
 * dropped, as before. Shows where the character is, never the URL.
 */
function checkUrlText(raw: string, secretName: string): void {
  const problem = credentialTextProblem(raw);
  if (problem === undefined) return;
  throw new InvalidConfigError(`chat_b: the secret ${JSON.stringify(secretName)} named by webhook_url_secret ${problem}, so it is not a usable webhook URL`, {
    hint: `copy the webhook URL again (channel settings → Integrations → Webhooks → Copy Webhook URL) and store it in the secret ${JSON.stringify(secretName)} alone, without quotes, spaces or line breaks`,
  });
}

function parseWebhookUrl(raw: string, secretName: string): { url: string; id: string; shown: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    // Quotes are the likelier mistake, and the clearer message.
    if (/^(["'`]).*\1$/s.test(raw.trim())) checkUrlText(raw, secretName);
    throw new InvalidConfigError(`chat_b: the secret ${JSON.stringify(secretName)} does not hold a valid URL`, {
      hint: "copy the whole webhook URL (https://…/api/webhooks/<id>/<token>) into the secret",
    });
  }
  checkUrlText(raw, secretName);
  const shown = `${url.protocol}//${url.host}/…`;
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname))) {
    throw new InvalidConfigError(`chat_b: the webhook URL (${shown}) must use https (plain http is allowed only for localhost)`, {
      hint: "the URL is the credential; never send it unencrypted",
    });
  }
  const match = WEBHOOK_PATH.exec(url.pathname);
  if (!match || url.search || url.hash || url.username || url.password) {
    throw new InvalidConfigError(`chat_b: the secret ${JSON.stringify(secretName)} does not hold a webhook URL of the form ${shown.slice(0, -1)}api/webhooks/<id>/<token>`, {
      hint: "copy the URL from the channel's Integrations → Webhooks → Copy Webhook URL, without query parameters",
    });
  }
  return { url: url.href.replace(/\/$/, ""), id: match[1] ?? "", shown };
}

function parseUsername(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const name = typeof value === "string" ? value.replace(/\s+/g, " ").trim() : "";
  if (name.length < 1 || name.length > USERNAME_MAX) {
    throw new InvalidConfigError(`chat_b: username must be 1 to ${USERNAME_MAX} characters`, { hint: "shorten it or leave it out" });
  }
  const forbidden = FORBIDDEN_IN_USERNAME.find((word) => name.toLowerCase().includes(word));
  if (forbidden) {
    throw new InvalidConfigError(`chat_b: username ${JSON.stringify(name)} contains ${JSON.stringify(forbidden)}, which the platform refuses in webhook names`, {
      hint: "choose another display name, e.g. \"Errand\"",
    });
  }
  return name;
}

function parseAvatarUrl(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  try {
    if (typeof value !== "string") throw new TypeError("not a string");
    const url = new URL(value);
    if ((url.protocol === "https:" || url.protocol === "http:") && url.href.length <= 2048) return url.href;
  } catch {
    // reported below
  }
  throw new InvalidConfigError("chat_b: avatar_url must be an http(s) URL of an image (at most 2048 characters)", {
    hint: "use a public https URL of a PNG or JPEG, or leave it out",
  });
}

/** True for localhost names and loopback addresses. */
export function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
