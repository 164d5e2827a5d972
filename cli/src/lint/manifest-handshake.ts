import { existsSync } from "node:fs";
import { join } from "node:path";
import { CONFORMANCE_FILE, loadConformanceConfig, withSinkUrl } from "../conformance/config.js";
import { targetFromPackage } from "../conformance/plugin-target.js";
import { startTarget } from "../conformance/harness.js";
import { describeCallError, PluginSession } from "../conformance/session.js";

/** What the plugin said about itself in a Handshake. */
export interface ManifestHandshake {
  name?: string;
  supportedVersions?: number[];
  error?: string;
}

/**
 * Starts the package's bin and runs a Handshake (with the conformance config
 * when there is one) to compare what it serves with what package.json declares.
 */
export async function manifestHandshake(dir: string, _bin: string, versions: number[]): Promise<ManifestHandshake> {
  const cleanups: (() => unknown)[] = [];
  try {
    const target = await targetFromPackage(dir);
    const file = join(dir, CONFORMANCE_FILE);
    const conformance = existsSync(file) ? await loadConformanceConfig(file) : undefined;
    let config: Record<string, unknown> = {};
    let secrets: Record<string, string> = {};
    if (conformance) {
      const { relay } = await startTarget({ target, conformance, startTimeoutMs: 10_000 }, (f) => cleanups.push(f));
      config = withSinkUrl(conformance.config, relay.url);
      secrets = withSinkUrl(conformance.secrets, relay.url);
    }
    const session = PluginSession.spawn(target, { env: { PLUGIN_PROTOCOL_VERSIONS: versions.join(",") } });
    cleanups.push(() => session.kill());
    await session.handshakeLine(10_000);
    try {
      const response = await session.handshake(config, secrets, session.line!.interfaceVersion);
      return { name: response.name, supportedVersions: response.supportedVersions };
    } catch (error) {
      return { error: describeCallError(error).text };
    }
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}
