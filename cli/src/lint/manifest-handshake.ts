import { existsSync } from "node:fs";
import { join } from "node:path";
import { CONFORMANCE_FILE, loadConformanceConfig } from "../conformance/config.js";
import { pluginInputs } from "../conformance/harness.js";
import { targetFromPackage } from "../conformance/plugin-target.js";
import { describeCallError, PluginSession } from "../conformance/session.js";

/** What the plugin said about itself in a Handshake. */
export interface ManifestHandshake {
  name?: string;
  supportedVersions?: number[];
  error?: string;
}

/**
 * Starts the package's bin and runs a Handshake (with the conformance config,
 * environment included, when there is one) to compare what it serves with
 * what package.json declares.
 */
export async function manifestHandshake(dir: string, versions: number[]): Promise<ManifestHandshake> {
  const cleanups: (() => unknown)[] = [];
  try {
    const target = await targetFromPackage(dir);
    const file = join(dir, CONFORMANCE_FILE);
    const conformance = existsSync(file) ? await loadConformanceConfig(file) : undefined;
    const startTimeoutMs = conformance?.startTimeoutMs ?? 10_000;
    const inputs = await pluginInputs({ target, conformance, startTimeoutMs }, (f) => cleanups.push(f));
    const session = PluginSession.spawn(target, { env: inputs.env, protocolVersions: versions.join(",") });
    cleanups.push(() => session.kill());
    await session.handshakeLine(startTimeoutMs);
    try {
      const response = await session.handshake(inputs.config, inputs.secrets, session.line!.interfaceVersion);
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
