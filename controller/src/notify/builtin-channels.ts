import { type Channel, type LoadOptions, loadChannel } from "@errand/channel-sdk/host";

/** A channel that ships with the controller and runs inside its process. */
export interface BuiltinChannel {
  /** The npm package it comes from, for `errand channels list`. */
  packageName: string;
  load(options: LoadOptions): Promise<Channel>;
}

/**
 * The built-in channels by backend name. They run in-process (no plugin
 * process to start or supervise); a `command` entry runs a channel as a
 * plugin instead, whatever its backend. Each package is imported when a
 * channel of it is loaded, not at start: 170-240 ms of module loading
 * that a controller without that channel never needs (docs/benchmarks.md).
 */
export const BUILTIN_CHANNELS: Readonly<Record<string, BuiltinChannel>> = {
  chat_a: { packageName: "@errand/channel-chat-a", load: async (options) => loadChannel((await import("@errand/channel-chat-a")).chatA, options) },
  chat_b: { packageName: "@errand/channel-chat-b", load: async (options) => loadChannel((await import("@errand/channel-chat-b")).chatB, options) },
};
