import { X509Certificate } from "node:crypto";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../version.js";

/** What the host told the plugin through its environment (go-plugin's variables). */
export interface PluginEnvironment {
  /** The interface version both sides speak (highest common). */
  interfaceVersion: number;
  transport: "unix" | "tcp";
  minPort: number;
  maxPort: number;
  /** Parent directory for the private socket directory. */
  socketDir: string | undefined;
  /**
   * Whether socketDir is a folder the host made for this plugin alone
   * (ERRAND_PLUGIN_SOCKET_DIR_LENT names the same path): the plugin then
   * removes it too when it exits, which matters when the host was killed
   * and can no longer do it. An operator's folder is never lent.
   */
  socketDirLent: boolean;
  /** PEM of the host's client certificate when the host asked for AutoMTLS. */
  clientCertPem: string | undefined;
}

/** Why the environment does not allow serving, as a message for stderr. */
export class PluginEnvironmentError extends Error {
  override readonly name = "PluginEnvironmentError";
}

export const NOT_LAUNCHED_BY_HOST_MESSAGE = `This program is an Errand notification channel plugin.
It is not meant to be run by hand: the Errand controller (or another
go-plugin host) starts it and talks to it over gRPC.

To try it out (the channel command of @errand/cli; in the plugin's own
package, where it is a devDependency, npx --no-install channel …):
  npx --package @errand/cli channel test -- <this command>         run the conformance checks
  npx --package @errand/cli channel send start -- <this command>   send one notification

To configure it in the controller, add it to notifications.channels[]
(see docs/protocol.md, "Running a plugin").
(${MAGIC_COOKIE_KEY} is not set to the expected value.)
`;

// Plain decimal digits only: Number() would also take "0x1", "1e0" and " 1".
const DECIMAL = /^[0-9]+$/;

function parsePort(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const port = DECIMAL.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new PluginEnvironmentError(`${name}=${JSON.stringify(value)} is not a TCP port (1-65535)`);
  }
  return port;
}

/**
 * Picks the interface version to serve: the highest one the plugin shares
 * with the versions the host lists in PLUGIN_PROTOCOL_VERSIONS; without the
 * list, the plugin's highest; with no common version, the plugin's lowest.
 */
export function negotiateVersion(hostList: string | undefined, supported: readonly number[]): number {
  const ours = [...supported].sort((a, b) => b - a);
  if (hostList === undefined || hostList.trim() === "") return ours[0]!;
  const listed = hostList
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
  const wrong = listed.find((v) => !DECIMAL.test(v));
  if (wrong !== undefined) {
    throw new PluginEnvironmentError(
      `PLUGIN_PROTOCOL_VERSIONS=${JSON.stringify(hostList)} is not a comma-separated list of integers `
        + `(${JSON.stringify(wrong)} is not a plain decimal number); the host must list its interface versions like "1" or "1,2"`,
    );
  }
  const theirs = listed.map(Number);
  // Like go-plugin, a plugin that shares no version with the host still
  // starts, offering its lowest version, so the host can refuse it with an
  // error that names both sides instead of seeing a plugin die silently.
  return ours.find((v) => theirs.includes(v)) ?? ours[ours.length - 1]!;
}

/**
 * Reads and validates the plugin's environment. Throws PluginEnvironmentError
 * when the magic cookie is missing (started by hand) or a value is invalid.
 */
export function readPluginEnvironment(env: NodeJS.ProcessEnv, supportedVersions: readonly number[]): PluginEnvironment {
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    throw new PluginEnvironmentError(NOT_LAUNCHED_BY_HOST_MESSAGE);
  }
  // Empty counts as unset, as it does for PLUGIN_UNIX_SOCKET_DIR.
  const transport = env.ERRAND_PLUGIN_TRANSPORT || "unix";
  if (transport !== "unix" && transport !== "tcp") {
    throw new PluginEnvironmentError(
      `ERRAND_PLUGIN_TRANSPORT=${JSON.stringify(transport)} must be "unix" or "tcp" (lower case), or unset for "unix"`,
    );
  }
  const minPort = parsePort(env.PLUGIN_MIN_PORT, 10_000, "PLUGIN_MIN_PORT");
  const maxPort = parsePort(env.PLUGIN_MAX_PORT, 25_000, "PLUGIN_MAX_PORT");
  if (minPort > maxPort) {
    throw new PluginEnvironmentError(`PLUGIN_MIN_PORT (${minPort}) is greater than PLUGIN_MAX_PORT (${maxPort})`);
  }
  const socketDir = env.PLUGIN_UNIX_SOCKET_DIR || undefined;
  return {
    interfaceVersion: negotiateVersion(env.PLUGIN_PROTOCOL_VERSIONS, supportedVersions),
    transport,
    minPort,
    maxPort,
    socketDir,
    // The same path, not a flag: a marker inherited from elsewhere cannot make an operator's folder removable.
    socketDirLent: socketDir !== undefined && env.ERRAND_PLUGIN_SOCKET_DIR_LENT === socketDir,
    clientCertPem: checkClientCertificate(env.PLUGIN_CLIENT_CERT || undefined),
  };
}

/**
 * The host's AutoMTLS certificate, proven to be one: TLS would otherwise
 * start with it and then refuse every connection with an opaque error,
 * while the plugin logs nothing.
 */
function checkClientCertificate(pem: string | undefined): string | undefined {
  if (pem === undefined) return undefined;
  const fix =
    "the host must put its client certificate, PEM-encoded (-----BEGIN CERTIFICATE-----…), in PLUGIN_CLIENT_CERT for AutoMTLS, or leave the variable unset";
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) {
    throw new PluginEnvironmentError(
      `PLUGIN_CLIENT_CERT is not a PEM certificate (no "-----BEGIN CERTIFICATE-----" line); ${fix}`,
    );
  }
  try {
    new X509Certificate(pem);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new PluginEnvironmentError(`PLUGIN_CLIENT_CERT is not a readable PEM certificate (${reason}); ${fix}`);
  }
  return pem;
}
