// What the SDK tests reach below the public entry points, by the SDK's own
// module paths: the public names and the internal ones the tests need.
export * from "../../src/channel.js";
export * from "../../src/config-schema.js";
export * from "../../src/errors.js";
export { type ConnectOptions, connectChannel } from "../../src/host/connect-channel.js";
export { type HandshakeLine, HandshakeLineError, parseHandshakeLine } from "../../src/host/handshake-line.js";
export { type LoadOptions, loadChannel } from "../../src/host/load-channel.js";
export { RemoteChannel, type RemoteChannelEvents } from "../../src/host/remote-channel.js";
export * from "../../src/logger.js";
export { type ServeOptions, serve } from "../../src/plugin/serve.js";
export * from "../../src/secret-mask.js";
export * from "../../src/secret-mask-errors.js";
export * from "../../src/version.js";
