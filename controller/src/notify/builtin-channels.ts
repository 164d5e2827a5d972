import type { ChannelDefinition } from "@errand/channel-sdk";
import { type Channel, type LoadOptions, loadChannel } from "@errand/channel-sdk/host";

/** A channel that ships with the controller and runs inside its process. */
export interface BuiltinChannel {
  /** The npm package it comes from, for `errand channels list`. */
  packageName: string;
  /** Its definition (imported on first use): `errand config check` validates entries against its `configSchema`. */
  definition(): Promise<ChannelDefinition<unknown>>;
  load(options: LoadOptions): Promise<Channel>;
}

/** A built-in from its package's definition, imported when first needed. */
function builtin(packageName: string, definition: () => Promise<ChannelDefinition<unknown>>): BuiltinChannel {
  return { packageName, definition, load: async (options) => loadChannel(await definition(), options) };
}

/**
 * The built-in channels by backend name. They run in-process (no plugin
 * process to start or supervise); a `command` entry runs a channel as a
 * plugin instead, whatever its backend. Each package is imported when a
 * channel of it is loaded, not at start: 170-240 ms of module loading
 * that a controller without that channel never needs (docs/benchmarks.md).
 */
export const BUILTIN_CHANNELS: Readonly<Record<string, BuiltinChannel>> = {
  chat_a: builtin(
    "@errand/channel-chat-a",
    async () => (await import("@errand/channel-chat-a")).chatA as ChannelDefinition<unknown>,
  ),
  chat_b: builtin(
    "@errand/channel-chat-b",
    async () => (await import("@errand/channel-chat-b")).chatB as ChannelDefinition<unknown>,
  ),
};
