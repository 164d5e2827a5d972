/**
 * `@errand/channel-sdk/testing`: fixtures, a recording HTTP sink and
 * handler contexts for testing channels.
 * @packageDocumentation
 */
export type { ChannelConfig, ChannelSecrets, StartContext, TaskResult, Ticket } from "../channel.js";
export type { Logger, LogLevel } from "../log-types.js";
export { type CapturedLogger, type CaptureLoggerOptions, captureLogger, type LogRecord } from "./capture-logger.js";
export { fixtures } from "./fixtures.js";
export {
  type Sink,
  type SinkBehaviour,
  type SinkOptions,
  type SinkRateLimit,
  type SinkRequest,
  startSink,
} from "./sink.js";
export { createTestContext, type TestContext, type TestContextOptions } from "./test-context.js";
