import { type ChannelConfig, type ChannelSecrets, InvalidConfigError } from "@errand/channel-sdk";

/** The validated config of this channel. */
export interface BotApiConfig {
  /** Target channel identifier (not its display name). */
  channelId: string;
  /** The bot token, from the secret the config names. */
  token: string;
  /** Base URL of the chat service's web API. */
  apiBaseUrl: string;
}

/** Change to your chat service's API. */
export const DEFAULT_API_BASE_URL = "https://chat.example.com/api";

/**
 * Validates `notifications.channels[].config`:
 *   channel_id:    target channel identifier
 *   token_secret:  name of the secret holding the bot token
 *   api_base_url:  optional, default DEFAULT_API_BASE_URL
 */
export function parseConfig(config: ChannelConfig, secrets: ChannelSecrets): BotApiConfig {
  const problems: string[] = [];
  const { channel_id: channelId, token_secret: tokenSecret, api_base_url: apiBaseUrl = DEFAULT_API_BASE_URL } = config;
  if (typeof channelId !== "string" || channelId === "") problems.push("config.channel_id is missing (the target channel's id)");
  if (typeof tokenSecret !== "string" || tokenSecret === "") problems.push("config.token_secret is missing (the name of the secret holding the bot token)");
  else if (!secrets[tokenSecret]) problems.push(`the secret "${tokenSecret}" named by config.token_secret was not provided`);
  if (typeof apiBaseUrl !== "string" || !/^https?:\/\//.test(apiBaseUrl)) problems.push("config.api_base_url must be an http(s) URL");
  if (problems.length > 0) {
    throw new InvalidConfigError(problems.join("; "), {
      hint: "set channel_id and token_secret in notifications.channels[].config and create the secret",
    });
  }
  return { channelId: channelId as string, token: secrets[tokenSecret as string]!, apiBaseUrl: apiBaseUrl as string };
}
