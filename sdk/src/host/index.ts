/**
 * @errand/channel-sdk/host: run notification channels, as the controller
 * does. `connectChannel` starts a plugin process; `loadChannel` runs a
 * channel definition in-process; both return a {@link Channel}.
 * @packageDocumentation
 */
export type {
  CallOptions,
  Channel,
  ChannelConfig,
  ChannelDefinition,
  ChannelSecrets,
  InitContext,
  NotifyContext,
  NotifyResult,
  StartCallOptions,
  StartContext,
  TaskResult,
  Ticket,
  TokenUsage,
} from "../channel.js";
export type { LogFields, Logger, LogLevel } from "../log-types.js";
export { createLogger, type LoggerOptions, silentLogger } from "../logger.js";
export { createSecretMask } from "../secret-mask.js";
export { createMaskingLogger } from "../secret-mask-errors.js";
export { connectChannel } from "./connect-channel.js";
export type { ConnectOptions } from "./connect-options.js";
export { type LoadOptions, loadChannel } from "./load-channel.js";
export type { PluginExit } from "./plugin-process.js";
export { RemoteChannel, type RemoteChannelEvents } from "./remote-channel.js";
