/**
 * @errand/channel-sdk: write, serve and host Errand notification channels.
 *
 * Authors: `defineChannel` + `serve`. Hosts: `connectChannel` (a plugin
 * process) or `loadChannel` (in-process); both return a {@link Channel}.
 * @packageDocumentation
 */
import "./plugin/auto-guard.js";

export * from "./channel.js";
export * from "./errors.js";
export * from "./logger.js";
export * from "./version.js";
export * from "./plugin/index.js";
export * from "./host/index.js";
export * from "./helpers/index.js";
export * from "./config-schema.js";
