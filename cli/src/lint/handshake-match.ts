import type { PackageJson } from "../conformance/plugin-target.js";
import type { AddFinding } from "./lint-finding.js";
import { manifestHandshake } from "./manifest-handshake.js";

/**
 * Runs the plugin's Handshake and checks it against the manifest: the
 * interface versions and the channel name must be the ones package.json
 * declares. Nothing to check without `errand.interfaceVersions`.
 */
export async function lintHandshakeMatch(dir: string, pkg: PackageJson, add: AddFinding): Promise<void> {
  const manifestVersions = Array.isArray(pkg.errand?.interfaceVersions)
    ? (pkg.errand.interfaceVersions as number[])
    : undefined;
  if (!manifestVersions) return;
  const outcome = await manifestHandshake(dir, manifestVersions);
  if (outcome.error) {
    add(
      "handshake",
      "error",
      `could not run the plugin's Handshake: ${outcome.error}`,
      "run channel test to see why the plugin does not start",
    );
    return;
  }
  const served = [...(outcome.supportedVersions ?? [])].sort().join(",");
  if (served !== [...manifestVersions].sort().join(",")) {
    add(
      "handshake",
      "error",
      `errand.interfaceVersions is [${manifestVersions.join(", ")}] but the plugin's Handshake supports [${served}]`,
      "make package.json errand.interfaceVersions list what defineChannel() declares",
    );
  }
  if (typeof pkg.errand?.channel === "string" && outcome.name !== pkg.errand.channel) {
    add(
      "handshake",
      "error",
      `errand.channel is "${pkg.errand.channel}" but the plugin's Handshake names "${outcome.name}"`,
      "use the same name in package.json errand.channel and defineChannel()",
    );
  }
}
