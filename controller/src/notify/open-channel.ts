import { ErrorCode, InvalidConfigError, type Logger } from "@errand/channel-sdk";
import { type Channel, connectChannel } from "@errand/channel-sdk/host";
import type { ChannelEntryConfig } from "../config/controller-config.js";
import type { ChannelSource } from "./channel-source.js";

/** What {@link createChannelOpener} needs besides the entry. */
export interface OpenerOptions {
  entry: ChannelEntryConfig;
  source: ChannelSource;
  /** The entry's own secrets, by name: sent in the Handshake, masked in logs. */
  secrets: Record<string, string>;
  /** The channel's logger; plugin stderr lines land here. */
  logger: Logger;
  startTimeoutMs: number;
  hostVersion: string;
}

/**
 * Errors that say the configuration is wrong, not that a start was
 * unlucky: reported at start-up and never retried. Anything else (a plugin
 * that crashed or hung while starting) is retried by the supervisor.
 */
const SETUP_CODES: ReadonlySet<string> = new Set([
  ErrorCode.InvalidConfig,
  ErrorCode.InvalidArgument,
  ErrorCode.VersionMismatch,
  ErrorCode.Unauthenticated,
  ErrorCode.PermissionDenied,
  ErrorCode.NotFound,
]);

/** True when a failed start is a configuration problem (see {@link SETUP_CODES}). */
export function isSetupFailure(error: unknown): boolean {
  return SETUP_CODES.has((error as { code?: unknown })?.code as string);
}

/**
 * Every record of a channel carries the entry's label (`chat_a#2`) as its
 * `channel` field, set last: loadChannel's logger and a plugin's own log
 * lines (forwarded from its stderr) bring a `channel` field with the
 * channel's name, which would hide which instance spoke.
 */
function keepingLabel(logger: Logger, label: string): Logger {
  const withLabel = (fields: Record<string, unknown> | undefined) => ({ ...fields, channel: label });
  return {
    debug: (message, fields) => logger.debug(message, withLabel(fields)),
    info: (message, fields) => logger.info(message, withLabel(fields)),
    warn: (message, fields) => logger.warn(message, withLabel(fields)),
    error: (message, fields) => logger.error(message, withLabel(fields)),
    child: (fields) => keepingLabel(logger.child(withLabel(fields)), label),
  };
}

/**
 * Returns a function that starts the entry's channel: in-process for a
 * built-in, as a plugin process otherwise. Each call starts a fresh
 * instance (the supervisor calls it again after a crash). A channel that
 * reports a name other than the entry's backend is closed and refused: the
 * executable is not the channel the entry was written for, and its config
 * and secrets were meant for another.
 */
export function createChannelOpener(options: OpenerOptions): () => Promise<Channel> {
  const { entry, source, secrets, logger } = options;
  const start = (): Promise<Channel> => {
    if (source.kind === "builtin")
      return source.builtin.load({ config: entry.config, secrets, logger: keepingLabel(logger, entry.label) });
    return connectChannel({
      command: source.command,
      args: source.args,
      cwd: source.kind === "package" ? source.dir : undefined,
      config: entry.config,
      secrets,
      logger: keepingLabel(logger, entry.label),
      startTimeoutMs: options.startTimeoutMs,
      hostName: "errand-controller",
      hostVersion: options.hostVersion,
    });
  };
  return async () => {
    const channel = await start();
    if (channel.name === entry.backend) return channel;
    await channel.close();
    const fix =
      source.kind === "package"
        ? `the package ${source.packageName} declares errand.channel "${entry.backend}" but serves "${channel.name}"; reinstall a fixed release (npx --package @errand/cli channel lint ${source.dir} shows the mismatch)`
        : `set backend: ${channel.name} if this is the plugin you meant, or point command at the "${entry.backend}" plugin`;
    throw new InvalidConfigError(`the plugin reports the channel name "${channel.name}", not "${entry.backend}"`, {
      hint: fix,
    });
  };
}
