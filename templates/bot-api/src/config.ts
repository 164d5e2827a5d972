import { type ChannelSecrets, InvalidConfigError } from "@errand/channel-sdk";
import { z } from "zod";

/** Change to your chat service's API. */
export const DEFAULT_API_BASE_URL = "https://chat.example.com/api";

/** A required, non-empty string; `what` tells what to set it to. */
const required = (what: string) =>
  z
    .string({
      error: (issue) => (issue.input === undefined ? `is required: set it to ${what}` : `must be a string: ${what}`),
    })
    .min(1, `is empty: set it to ${what}`);

/**
 * `notifications.channels[].config`, checked by the SDK before init:
 *   channel_id:    target channel identifier
 *   token_secret:  name of the secret holding the bot token
 *   api_base_url:  optional, default DEFAULT_API_BASE_URL
 * Every problem is reported at once, with its path.
 */
export const configSchema = z.strictObject({
  channel_id: required("the target channel's id (not its display name)"),
  token_secret: required("the name of the secret holding the bot token"),
  api_base_url: z
    .string()
    .regex(/^https?:\/\//, "must be an http(s) URL")
    .default(DEFAULT_API_BASE_URL),
});

/** The config as the schema returns it. */
export type Settings = z.output<typeof configSchema>;

/** The resolved config of this channel. */
export interface BotApiConfig {
  /** Target channel identifier (not its display name). */
  channelId: string;
  /** The bot token, from the secret the config names. */
  token: string;
  /** Base URL of the chat service's web API. */
  apiBaseUrl: string;
}

/** Resolves the bot token the config names; never prints it. */
export function resolveConfig(settings: Settings, secrets: ChannelSecrets): BotApiConfig {
  const token = secrets[settings.token_secret];
  if (!token) {
    throw new InvalidConfigError(
      `the secret "${settings.token_secret}" named by config.token_secret was not provided`,
      {
        hint: "create the secret with the bot token in the controller's secret store",
      },
    );
  }
  return { channelId: settings.channel_id, token, apiBaseUrl: settings.api_base_url };
}
