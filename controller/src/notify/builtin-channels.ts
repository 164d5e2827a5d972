import { chatA } from "@errand/channel-chat-a";
import { chatB } from "@errand/channel-chat-b";
import { type Channel, loadChannel, type LoadOptions } from "@errand/channel-sdk/host";

/** A channel that ships with the controller and runs inside its process. */
export interface BuiltinChannel {
  /** The npm package it comes from, for `errand channels list`. */
  packageName: string;
  load(options: LoadOptions): Promise<Channel>;
}

/**
 * The built-in channels by backend name. They run in-process (no plugin
 * process to start or supervise); a `command` entry runs a channel as a
 * plugin instead, whatever its backend.
 */
export const BUILTIN_CHANNELS: Readonly<Record<string, BuiltinChannel>> = {
  chat_a: { packageName: "@errand/channel-chat-a", load: (options) => loadChannel(chatA, options) },
  chat_b: { packageName: "@errand/channel-chat-b", load: (options) => loadChannel(chatB, options) },
};
