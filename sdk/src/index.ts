/**
 * @errand/channel-sdk: write a notification channel and serve it as a
 * plugin process. Everything a channel's author needs: `defineChannel`,
 * `serve`, the typed errors and the types handlers see.
 *
 * Other audiences have their own entry points: `/host` (run channels:
 * `connectChannel`, `loadChannel`), `/helpers` (HTTP client, throttle,
 * formatting), `/testing` (fixtures, a recording sink), `/protocol` (wire
 * level, for tools such as the CLI's conformance runner).
 * @packageDocumentation
 */
import "./plugin/auto-guard.js";

export {
  type ChannelConfig,
  type ChannelDefinition,
  type ChannelSecrets,
  defineChannel,
  type InitContext,
  type NotifyContext,
  type NotifyResult,
  type StartContext,
  type TaskResult,
  type Ticket,
  type TokenUsage,
} from "./channel.js";
export {
  formatConfigPath,
  type StandardSchemaV1,
  type ValidateConfigOptions,
  validateConfig,
} from "./config-schema.js";
export {
  CancelledError,
  ChannelError,
  type ChannelErrorOptions,
  createChannelError,
  DeadlineExceededError,
  ErrorCode,
  InternalError,
  InvalidArgumentError,
  InvalidConfigError,
  isChannelError,
  NotFoundError,
  PermissionDeniedError,
  PluginExitedError,
  PluginStartError,
  RateLimitedError,
  RejectedError,
  toChannelError,
  UnauthenticatedError,
  UnavailableError,
  VersionMismatchError,
} from "./errors.js";
export type { LogFields, Logger, LogLevel } from "./log-types.js";
export { type ServeOptions, serve } from "./plugin/serve.js";
