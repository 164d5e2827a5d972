import { checkChannelName } from "@errand/channel-sdk/protocol";
import validateNpmName from "validate-npm-package-name";

/** Returns why `name` is not a valid channel name, or undefined. */
export function validateChannelName(name: string): string | undefined {
  return checkChannelName(name);
}

/** Returns why `name` cannot be published as a new npm package (npm's own rules), or undefined. */
export function validatePackageName(name: string): string | undefined {
  if (name.length === 0) return "the package name is missing";
  const verdict = validateNpmName(name);
  if (verdict.validForNewPackages) return undefined;
  const reasons = [...(verdict.errors ?? []), ...(verdict.warnings ?? [])].join("; ");
  return `package name ${JSON.stringify(name)} cannot be published to npm: ${reasons} (a name that works: "errand-channel-teams", or "@acme/errand-channel-teams")`;
}

/** A channel name derived from a directory name: `My Chat` → `my-chat`. */
export function channelNameFrom(dir: string): string {
  const base = dir
    .toLowerCase()
    .replace(/^errand-channel-/, "")
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[^a-z]+|-+$/g, "");
  return base.slice(0, 63) || "my_channel";
}

/** The conventional package name of a channel: `errand-channel-<name>`. */
export function packageNameFor(channel: string): string {
  return `errand-channel-${channel.replace(/_/g, "-")}`;
}
