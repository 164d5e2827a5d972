import type { ChannelConfig } from "../channel.js";
import type { Logger } from "../logger.js";
import { argumentError, describeValue } from "../runtime/argument-error.js";
import { checkDuration, checkSecrets } from "../runtime/call-options.js";
import { checkJsonObject } from "../runtime/json-value.js";
import { SUPPORTED_INTERFACE_VERSIONS } from "../version.js";
import { checkLaunchTarget } from "./launch-checks.js";

/** Options of {@link connectChannel}. */
export interface ConnectOptions {
  /** The plugin executable (a package bin, `node`, a Go binary, ...). Run directly, never through a shell. */
  command: string;
  args?: readonly string[];
  /** Extra environment for the plugin; the host's own is inherited. */
  env?: Record<string, string | undefined>;
  /** The plugin's working directory; must exist. Default the host's. */
  cwd?: string;
  /**
   * The channel's `config` object, sent in the Handshake. Plain JSON data only
   * (no Date, NaN, BigInt, functions or cycles), so it arrives unchanged.
   */
  config?: ChannelConfig;
  /** Resolved secrets by name (string values), sent once in the Handshake and masked in logs and errors. */
  secrets?: Record<string, string>;
  /** Time allowed from spawn to a completed Handshake; default 10 000 ms, at most 2^31-1. */
  startTimeoutMs?: number;
  /** Interface versions this host accepts; default the SDK's. */
  supportedVersions?: readonly number[];
  /** Where the plugin listens; default a Unix socket. */
  transport?: "unix" | "tcp";
  /** go-plugin's AutoMTLS; default on for TCP, off for Unix sockets (already private to the user). */
  autoMTLS?: boolean;
  /** Receives the host's and the plugin's log records (secrets masked); default JSON on stderr. */
  logger?: Logger;
  /** Sent in the Handshake for the plugin's logs. */
  hostName?: string;
  hostVersion?: string;
}

/** {@link ConnectOptions} after {@link checkConnectOptions}: defaults applied, every value usable. */
export interface CheckedConnectOptions {
  startTimeoutMs: number;
  supportedVersions: readonly number[];
  transport: "unix" | "tcp";
  autoMTLS: boolean;
  config: ChannelConfig;
  secrets: Record<string, string>;
}

const LABEL = "connectChannel";

/**
 * Validates everything a caller passes to connectChannel before a process
 * is started, so a mistake is an InvalidArgumentError naming the option
 * rather than a serialization failure or a crash later.
 */
export function checkConnectOptions(options: ConnectOptions): CheckedConnectOptions {
  checkLaunchTarget(options, LABEL);
  const transport = options.transport ?? "unix";
  if (transport !== "unix" && transport !== "tcp") {
    throw argumentError(
      LABEL,
      "options.transport",
      `must be "unix" or "tcp", got ${describeValue(transport)}`,
      'leave transport out for a Unix socket, or pass "tcp"',
    );
  }
  const supportedVersions = options.supportedVersions ?? SUPPORTED_INTERFACE_VERSIONS;
  if (
    !Array.isArray(supportedVersions)
    || supportedVersions.length === 0
    || !supportedVersions.every((v) => Number.isSafeInteger(v) && v > 0)
  ) {
    throw argumentError(
      LABEL,
      "options.supportedVersions",
      `must be a non-empty list of positive integers, got ${describeValue(supportedVersions)}`,
      "leave supportedVersions out for the SDK's, or pass for example [1]",
    );
  }
  if (options.autoMTLS !== undefined && typeof options.autoMTLS !== "boolean") {
    throw argumentError(
      LABEL,
      "options.autoMTLS",
      `must be true or false, got ${describeValue(options.autoMTLS)}`,
      "leave autoMTLS out for the default",
    );
  }
  for (const name of ["hostName", "hostVersion"] as const) {
    const value = options[name];
    if (value !== undefined && typeof value !== "string")
      throw argumentError(
        LABEL,
        `options.${name}`,
        `must be a string, got ${describeValue(value)}`,
        `pass ${name} as a string`,
      );
  }
  const logger = options.logger as unknown as Record<string, unknown> | undefined;
  if (
    logger !== undefined
    && (typeof logger !== "object"
      || logger === null
      || !["debug", "info", "warn", "error", "child"].every((m) => typeof logger[m] === "function"))
  ) {
    throw argumentError(
      LABEL,
      "options.logger",
      `must be a Logger (debug, info, warn, error and child methods), got ${describeValue(logger)}`,
      "pass createLogger(), silentLogger, or an adapter to your logger",
    );
  }
  const config = options.config ?? {};
  checkJsonObject(config, "options.config", LABEL);
  return {
    startTimeoutMs: checkDuration(options.startTimeoutMs, "options.startTimeoutMs", LABEL, 10_000),
    supportedVersions,
    transport,
    autoMTLS: options.autoMTLS ?? transport === "tcp",
    config,
    secrets: checkSecrets(options.secrets, LABEL),
  };
}
