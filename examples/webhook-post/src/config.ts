import { type ChannelConfig, type ChannelSecrets, InvalidConfigError } from "@errand/channel-sdk";

/** The validated config of a webhook_post channel. */
export interface WebhookPostConfig {
  /** Where notifications are POSTed. */
  url: string;
  /** True when the URL came from a secret: it is then never printed. */
  urlIsSecret: boolean;
  /** Extra headers sent with every POST. */
  headers: Record<string, string>;
}

const HINT = 'set config.url to an http(s) URL, or config.url_secret to the name of a secret that holds one';

/**
 * Validates `config` (`url` or `url_secret`, optional `headers`) and
 * resolves the secret. Throws InvalidConfigError naming the key to fix.
 */
export function parseConfig(config: ChannelConfig, secrets: ChannelSecrets): WebhookPostConfig {
  const { url, url_secret: urlSecret, headers = {} } = config;
  if ((url === undefined) === (urlSecret === undefined)) {
    throw new InvalidConfigError("webhook_post needs exactly one of config.url and config.url_secret", { hint: HINT });
  }
  let target: string;
  if (urlSecret !== undefined) {
    if (typeof urlSecret !== "string" || urlSecret === "") throw new InvalidConfigError("config.url_secret must be a secret name", { hint: HINT });
    const value = secrets[urlSecret];
    if (value === undefined) {
      throw new InvalidConfigError(`secret ${JSON.stringify(urlSecret)} (config.url_secret) was not provided`, {
        hint: "create the secret and make it available to the controller",
      });
    }
    target = value;
  } else {
    if (typeof url !== "string") throw new InvalidConfigError("config.url must be a string", { hint: HINT });
    target = url;
  }
  let parsed: URL;
  try {
    parsed = new URL(target);
  } catch {
    // Never echo a secret URL, even a malformed one.
    throw new InvalidConfigError(`${urlSecret ? `secret ${JSON.stringify(urlSecret)}` : "config.url"} is not a valid URL`, { hint: HINT });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new InvalidConfigError(`the webhook URL must use http or https, not ${parsed.protocol}`, { hint: HINT });
  }
  if (typeof headers !== "object" || headers === null || Array.isArray(headers) || Object.values(headers).some((v) => typeof v !== "string")) {
    throw new InvalidConfigError("config.headers must be an object of header name to string value", {
      hint: 'for example headers: { "X-Team": "platform" }',
    });
  }
  return { url: target, urlIsSecret: urlSecret !== undefined, headers: headers as Record<string, string> };
}
