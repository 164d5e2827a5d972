export { connectChannel, type ConnectOptions } from "./connect-channel.js";
export { loadChannel, type LoadOptions } from "./load-channel.js";
export { RemoteChannel, type RemoteChannelEvents } from "./remote-channel.js";
export type { PluginExit } from "./plugin-process.js";
export { parseHandshakeLine, HandshakeLineError, type HandshakeLine } from "./handshake-line.js";
