import { type ChannelSecrets, InvalidConfigError, validateConfig } from "@errand/channel-sdk";
import { credentialTextProblem, digestThresholdSchema } from "@errand/chat-kit";
import { z } from "zod";

const KNOWN_KEYS = ["webhook_url_secret", "username", "avatar_url", "digest_threshold"];
const INLINE_URL_KEYS = ["webhook_url", "url"];
// Webhook names: 1 to 80 characters, and they "cannot contain" certain
// substrings (https://docs.discord.food/resources/user#usernames-and-nicknames:
// webhook names cannot contain "clyde"; names cannot contain "discord").
const USERNAME_MAX = 80;
const FORBIDDEN_IN_USERNAME = ["clyde", "discord"];
const WEBHOOK_PATH = /\/webhooks\/([^/]+)\/[^/]+\/?$/;

const SECRET_NAME = "the name of the secret that holds the webhook URL";
const webhookUrlSecret = z
  .string({
    error: (issue) =>
      issue.input === undefined ? `is required: set it to ${SECRET_NAME}` : `must be a string: ${SECRET_NAME}`,
  })
  .trim()
  .min(1, `is empty: set it to ${SECRET_NAME}`);

const USERNAME_LENGTH = `must be 1 to ${USERNAME_MAX} characters: shorten it or leave it out`;
const username = z
  .string({ error: USERNAME_LENGTH })
  .transform((value) => value.replace(/\s+/g, " ").trim())
  .pipe(z.string().min(1, USERNAME_LENGTH).max(USERNAME_MAX, USERNAME_LENGTH))
  .superRefine((name, ctx) => {
    const forbidden = FORBIDDEN_IN_USERNAME.find((word) => name.toLowerCase().includes(word));
    if (forbidden) {
      ctx.addIssue({
        code: "custom",
        message: `${JSON.stringify(name)} contains ${JSON.stringify(forbidden)}, which the platform refuses in webhook names: choose another display name, e.g. "Errand"`,
      });
    }
  });

const AVATAR_URL =
  "must be an http(s) URL of an image (at most 2048 characters): use a public https URL of a PNG or JPEG, or leave it out";
const avatarUrl = z.string({ error: AVATAR_URL }).transform((value, ctx) => {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url && (url.protocol === "https:" || url.protocol === "http:") && url.href.length <= 2048) return url.href;
  ctx.addIssue({ code: "custom", message: AVATAR_URL });
  return z.NEVER;
});

export { DEFAULT_DIGEST_THRESHOLD } from "@errand/chat-kit";

/**
 * chat_b's `config`, as a Standard Schema (zod): `webhook_url_secret`,
 * optional `username`, `avatar_url` and `digest_threshold`. Its output is {@link ChatBSettings}.
 * An inline webhook URL is refused without echoing it.
 */
export const chatBConfigSchema = z
  .strictObject(
    {
      webhook_url_secret: webhookUrlSecret,
      username: username.optional(),
      avatar_url: avatarUrl.optional(),
      digest_threshold: digestThresholdSchema,
    },
    {
      error: (issue) => {
        if (issue.code !== "unrecognized_keys") return undefined;
        if (issue.keys.some((key) => INLINE_URL_KEYS.includes(key))) {
          return "an inline webhook URL in config is refused (the URL itself is the credential): store the webhook URL in a secret and name that secret in webhook_url_secret";
        }
        return `unknown key(s) ${issue.keys.map((key) => JSON.stringify(key)).join(", ")}: known keys are ${KNOWN_KEYS.join(", ")}`;
      },
    },
  )
  .transform((config) => ({
    /** Name of the secret that holds the webhook URL (for messages; never the value). */
    webhookUrlSecret: config.webhook_url_secret,
    /** Display name overriding the webhook's own. */
    username: config.username,
    /** Avatar image URL overriding the webhook's own. */
    avatarUrl: config.avatar_url,
    /** When more notifications than this wait for the webhook, the next message is a digest of them. */
    digestThreshold: config.digest_threshold,
  }));

/** chat_b's config as {@link chatBConfigSchema} returns it, before the webhook URL is resolved. */
export type ChatBSettings = z.output<typeof chatBConfigSchema>;

/** A validated chat_b config, with the webhook URL resolved. */
export interface ChatBConfig extends ChatBSettings {
  /** The webhook URL. It is the credential: never log it or put it in an error. */
  webhookUrl: string;
  /** The webhook's id (the path segment before the token): names its rate-limit lane. */
  webhookId: string;
  /** What the URL may be shown as: its origin and "/…". */
  shownUrl: string;
}

/**
 * Resolves the webhook URL that validated settings name. Throws
 * `InvalidConfigError` naming the secret to fix; never shows more of the
 * webhook URL than its origin.
 */
export function resolveChatBWebhook(settings: ChatBSettings, secrets: ChannelSecrets): ChatBConfig {
  const { webhookUrlSecret } = settings;
  const raw = secrets[webhookUrlSecret] ?? "";
  if (raw.trim() === "") {
    throw new InvalidConfigError(
      `chat_b: the secret ${JSON.stringify(webhookUrlSecret)} named by webhook_url_secret was not provided or is empty`,
      {
        hint: "create the secret with the webhook URL and make it available to the controller",
      },
    );
  }
  const { url, id, shown } = parseWebhookUrl(raw, webhookUrlSecret);
  return { ...settings, webhookUrl: url, webhookId: id, shownUrl: shown };
}

/**
 * Validates a chat_b `config` object with {@link chatBConfigSchema} and
 * resolves its webhook URL secret, as the channel's start does. Rejects
 * with one `InvalidConfigError` listing every problem of the config.
 */
export async function parseChatBConfig(config: unknown, secrets: ChannelSecrets): Promise<ChatBConfig> {
  return resolveChatBWebhook(await validateConfig(chatBConfigSchema, config, { label: "chat_b" }), secrets);
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
  throw new InvalidConfigError(
    `chat_b: the secret ${JSON.stringify(secretName)} named by webhook_url_secret ${problem}, so it is not a usable webhook URL`,
    {
      hint: `copy the webhook URL again (channel settings → Integrations → Webhooks → Copy Webhook URL) and store it in the secret ${JSON.stringify(secretName)} alone, without quotes, spaces or line breaks`,
    },
  );
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
    throw new InvalidConfigError(
      `chat_b: the webhook URL (${shown}) must use https (plain http is allowed only for localhost)`,
      {
        hint: "the URL is the credential; never send it unencrypted",
      },
    );
  }
  const match = WEBHOOK_PATH.exec(url.pathname);
  if (!match || url.search || url.hash || url.username || url.password) {
    throw new InvalidConfigError(
      `chat_b: the secret ${JSON.stringify(secretName)} does not hold a webhook URL of the form ${shown.slice(0, -1)}api/webhooks/<id>/<token>`,
      {
        hint: "copy the URL from the channel's Integrations → Webhooks → Copy Webhook URL, without query parameters",
      },
    );
  }
  return { url: url.href.replace(/\/$/, ""), id: match[1] ?? "", shown };
}

/** True for localhost names and loopback addresses. */
export function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
