/**
 * @errand/channel-sdk/protocol: the wire-level pieces, for tools that must
 * step outside the normal host flow (the CLI's conformance runner, other
 * hosts): generated messages and gRPC services, the handshake line, the
 * magic cookie and the call target, gRPC clients on a plugin, the
 * notification call type and sending one through a client, lending a
 * plugin its socket folder, and stopping a plugin process. Plugin authors and ordinary hosts never need this entry.
 * @packageDocumentation
 */
export { checkChannelName } from "../channel.js";
export type { HandshakeRequest, HandshakeResponse, TaskResult, Ticket, TokenUsage } from "../gen/errand/v1/common.js";
export {
  type NotificationChannelClient,
  NotificationChannelService,
  type NotifyCompleteRequest,
  type NotifyCompleteResponse,
  NotifyRequest,
  type NotifyResponse,
  type NotifyStartRequest,
  type NotifyStartResponse,
} from "../gen/errand/v1/notifications.js";
export {
  type HealthCheckRequest,
  type HealthCheckResponse,
  type HealthClient,
  HealthService,
} from "../gen/grpc/health/v1/health.js";
export { type GRPCControllerClient, GRPCControllerService } from "../gen/plugin/grpc_controller.js";
export {
  callHealth,
  callShutdown,
  createClients,
  type PluginClients,
  type UnaryOptions,
  unaryCall,
} from "../host/grpc-clients.js";
export { type HandshakeLine, parseHandshakeLine } from "../host/handshake-line.js";
export { type NotificationAnswer, sendNotification } from "../host/send-notification.js";
export { lendSocketDir, removeSocketDir } from "../host/socket-dir.js";
export {
  isProcessRunning,
  type StopProcessOptions,
  settlesWithin,
  signalProcess,
  stopProcess,
} from "../host/stop-process.js";
export type { NotificationCall, PartialNotificationCall } from "../runtime/notification-call.js";
export { CALL_TARGET_MS, MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../version.js";
