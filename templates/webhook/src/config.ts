import { type ChannelSecrets, InvalidConfigError } from "@errand/channel-sdk";
import { z } from "zod";

const SECRET_NAME = "the name of the secret that holds the incoming-webhook URL";

/**
 * `notifications.channels[].config`, checked by the SDK before init:
 *   webhook_url_secret: <name of the secret holding the incoming-webhook URL>
 * Add your keys here; every problem is reported at once, with its path.
 */
export const configSchema = z.strictObject({
  webhook_url_secret: z
    .string({
      error: (issue) =>
        issue.input === undefined ? `is required: set it to ${SECRET_NAME}` : `must be a string: ${SECRET_NAME}`,
    })
    .min(1, `is empty: set it to ${SECRET_NAME}`),
});

/** The config as the schema returns it. */
export type Settings = z.output<typeof configSchema>;

/** The resolved config of this channel. */
export interface WebhookConfig {
  /** The incoming-webhook URL, from the secret the config names. */
  webhookUrl: string;
}

/**
 * Resolves the secret the config names. Errors say what is wrong and how to
 * fix it; they never print the secret.
 */
export function resolveConfig(settings: Settings, secrets: ChannelSecrets): WebhookConfig {
  const secretName = settings.webhook_url_secret;
  const webhookUrl = secrets[secretName];
  if (!webhookUrl) {
    throw new InvalidConfigError(`the secret "${secretName}" named by config.webhook_url_secret was not provided`, {
      hint: `create the secret "${secretName}" in the controller's secret store`,
    });
  }
  if (!/^https?:\/\//.test(webhookUrl)) {
    throw new InvalidConfigError(`the secret "${secretName}" does not hold an http(s) URL`, {
      hint: "store the full incoming-webhook URL in the secret",
    });
  }
  return { webhookUrl };
}
