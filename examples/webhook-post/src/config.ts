import { type ChannelSecrets, InvalidConfigError, validateConfig } from "@errand/channel-sdk";
import { z } from "zod";

/** The validated config of a webhook_post channel. */
export interface WebhookPostConfig {
  /** Where notifications are POSTed. */
  url: string;
  /** True when the URL came from a secret: it is then never printed. */
  urlIsSecret: boolean;
  /** Extra headers sent with every POST. */
  headers: Record<string, string>;
}

const HOW = "set config.url to an http(s) URL, or config.url_secret to the name of a secret that holds one";

/** Why `text` is no usable webhook URL, or undefined; never quotes the URL (it may be a secret). */
function urlProblem(text: string): string | undefined {
  if (!URL.canParse(text)) return "is not a valid URL";
  const { protocol } = new URL(text);
  return protocol === "http:" || protocol === "https:" ? undefined : `must use http or https, not ${protocol}`;
}

/**
 * webhook_post's `config` as a Standard Schema (zod): exactly one of `url`
 * and `url_secret`, optional `headers` (header name to string value).
 */
export const webhookPostConfigSchema = z
  .strictObject({
    url: z
      .string({ error: `must be a string: ${HOW}` })
      .superRefine((url, ctx) => {
        const problem = urlProblem(url);
        if (problem) ctx.addIssue({ code: "custom", message: `${problem}: ${HOW}` });
      })
      .optional(),
    url_secret: z
      .string({ error: `must be a secret name: ${HOW}` })
      .min(1, `must be a secret name: ${HOW}`)
      .optional(),
    headers: z
      .record(z.string(), z.string(), {
        error: 'must be an object of header name to string value, for example headers: { "X-Team": "platform" }',
      })
      .default({}),
  })
  // `when`: checked even when another key is wrong (but the config is an object), so every problem is listed at once.
  .refine((config) => (config.url === undefined) !== (config.url_secret === undefined), {
    message: `webhook_post needs exactly one of config.url and config.url_secret: ${HOW}`,
    when: ({ value }) => typeof value === "object" && value !== null,
  });

/** webhook_post's config as {@link webhookPostConfigSchema} returns it. */
export type WebhookPostSettings = z.output<typeof webhookPostConfigSchema>;

/** Resolves the URL the settings name (from a secret, when `url_secret`). Throws InvalidConfigError naming the secret. */
export function resolveWebhookUrl(settings: WebhookPostSettings, secrets: ChannelSecrets): WebhookPostConfig {
  const { url, url_secret: urlSecret, headers } = settings;
  if (urlSecret === undefined) return { url: url ?? "", urlIsSecret: false, headers };
  const value = secrets[urlSecret];
  if (value === undefined) {
    throw new InvalidConfigError(
      `webhook_post: secret ${JSON.stringify(urlSecret)} (config.url_secret) was not provided`,
      {
        hint: "create the secret and make it available to the controller",
      },
    );
  }
  const problem = urlProblem(value);
  // Never echo a secret URL, even a malformed one.
  if (problem)
    throw new InvalidConfigError(`webhook_post: secret ${JSON.stringify(urlSecret)} ${problem}`, { hint: HOW });
  return { url: value, urlIsSecret: true, headers };
}

/**
 * Validates `config` with {@link webhookPostConfigSchema} and resolves the
 * secret, as the channel's start does. Rejects with InvalidConfigError
 * listing every problem.
 */
export async function parseConfig(config: unknown, secrets: ChannelSecrets): Promise<WebhookPostConfig> {
  return resolveWebhookUrl(await validateConfig(webhookPostConfigSchema, config, { label: "webhook_post" }), secrets);
}
