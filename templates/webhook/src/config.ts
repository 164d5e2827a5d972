import { type ChannelConfig, type ChannelSecrets, InvalidConfigError } from "@errand/channel-sdk";

/** The validated config of this channel. */
export interface WebhookConfig {
  /** The incoming-webhook URL, from the secret the config names. */
  webhookUrl: string;
}

/**
 * Validates `notifications.channels[].config`:
 *   webhook_url_secret: <name of the secret holding the incoming-webhook URL>
 * Errors say what is wrong and how to fix it; they never print the secret.
 */
export function parseConfig(config: ChannelConfig, secrets: ChannelSecrets): WebhookConfig {
  const secretName = config.webhook_url_secret;
  if (typeof secretName !== "string" || secretName === "") {
    throw new InvalidConfigError("config.webhook_url_secret is missing", {
      hint: "set webhook_url_secret to the name of the secret that holds the incoming-webhook URL",
    });
  }
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
