import { checkChannelName } from "@errand/channel-sdk";

/** Returns why `name` is not a valid channel name, or undefined. */
export function validateChannelName(name: string): string | undefined {
  return checkChannelName(name);
}

/** Returns why `name` is not a publishable npm package name, or undefined. */
export function validatePackageName(name: string): string | undefined {
  if (name.length === 0) return "the package name is missing";
  if (name.length > 214) return "an npm package name has at most 214 characters";
  if (!/^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/.test(name)) {
    return `package name ${JSON.stringify(name)} is invalid: use lowercase letters, digits, "-", "." or "_", optionally with a @scope/ (for example "errand-channel-teams")`;
  }
  return undefined;
}

/** A channel name derived from a directory name: `My Chat` → `my-chat`. */
export function channelNameFrom(dir: string): string {
  const base = dir.toLowerCase().replace(/^errand-channel-/, "").replace(/[^a-z0-9_-]+/g, "-").replace(/^[^a-z]+|-+$/g, "");
  return base.slice(0, 63) || "my_channel";
}

/** The conventional package name of a channel: `errand-channel-<name>`. */
export function packageNameFor(channel: string): string {
  return `errand-channel-${channel.replace(/_/g, "-")}`;
}
