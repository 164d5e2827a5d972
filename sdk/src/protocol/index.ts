/**
 * @errand/channel-sdk/protocol: the wire-level pieces, for tools that must
 * step outside the normal host flow (the conformance runner, other hosts):
 * generated messages and gRPC clients, the handshake line, process launch.
 * Plugin authors and ordinary hosts never need this entry.
 * @packageDocumentation
 */
export {
  Ticket,
  TaskResult,
  TokenUsage,
  HandshakeRequest,
  HandshakeResponse,
} from "../gen/errand/v1/common.js";
export {
  NotifyRequest,
  NotifyResponse,
  NotifyStartRequest,
  NotifyStartResponse,
  NotifyCompleteRequest,
  NotifyCompleteResponse,
  NotificationChannelClient,
  NotificationChannelService,
  type NotificationChannelServer,
} from "../gen/errand/v1/notifications.js";
export {
  HealthClient,
  HealthService,
  HealthCheckRequest,
  HealthCheckResponse,
  HealthCheckResponse_ServingStatus,
} from "../gen/grpc/health/v1/health.js";
export { GRPCControllerClient, GRPCControllerService } from "../gen/plugin/grpc_controller.js";
export { parseHandshakeLine, HandshakeLineError, type HandshakeLine } from "../host/handshake-line.js";
export { launchPlugin, type LaunchOptions, type PluginProcess, type PluginExit } from "../host/plugin-process.js";
export { createClients, unaryCall, callHealth, callShutdown, type PluginClients, type UnaryOptions } from "../host/grpc-clients.js";
export {
  fromServiceError,
  MAX_STATUS_HINT_BYTES,
  MAX_STATUS_MESSAGE_BYTES,
  toStatus,
  type ToStatusOptions,
} from "../grpc/status-mapping.js";
export { generateCertificate, certificateFieldToPem, type GeneratedCertificate } from "../grpc/auto-mtls.js";
export { negotiateVersion, NOT_LAUNCHED_BY_HOST_MESSAGE } from "../plugin/plugin-env.js";
