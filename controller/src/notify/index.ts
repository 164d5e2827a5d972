export { type Backoff, type BackoffOptions, createBackoff } from "./backoff.js";
export { BUILTIN_CHANNELS, type BuiltinChannel } from "./builtin-channels.js";
export type { FailureInfo } from "./channel-health.js";
export { ChannelSetupError, type ChannelSetupProblem } from "./channel-setup-error.js";
export {
  type ChannelsInput,
  checkChannels,
  formatChannelList,
  formatCheckResults,
  listChannels,
} from "./channels-report.js";
export { CHECK_TICKET, checkMessage } from "./check-notification.js";
export { createNotifier } from "./create-notifier.js";
export {
  createPluginFinder,
  type PluginFinder,
  type PluginSearchOptions,
  type PluginSearchResult,
  pluginSearchRoots,
} from "./find-plugin-package.js";
export type { CallOutcome, Operation } from "./notifier-metrics.js";
export type {
  ChannelSourceInfo,
  ChannelStatus,
  CheckResult,
  Notifier,
  NotifierHealth,
  NotifierOptions,
} from "./notifier-types.js";
export { createProgressGate, type ProgressGate, type ProgressGateOptions } from "./progress-gate.js";
export type { ChannelState } from "./supervised-channel.js";
