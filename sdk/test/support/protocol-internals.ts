// Everything the SDK tests reach below the public entry points: the wire
// pieces (generated messages, process launch, status mapping, certificates).
export {
  HandshakeRequest,
  HandshakeResponse,
  TaskResult,
  Ticket,
  TokenUsage,
} from "../../src/gen/errand/v1/common.js";
export {
  NotificationChannelClient,
  type NotificationChannelServer,
  NotificationChannelService,
  NotifyCompleteRequest,
  NotifyCompleteResponse,
  NotifyRequest,
  NotifyResponse,
  NotifyStartRequest,
  NotifyStartResponse,
} from "../../src/gen/errand/v1/notifications.js";
export {
  HealthCheckRequest,
  HealthCheckResponse,
  HealthCheckResponse_ServingStatus,
  HealthClient,
  HealthService,
} from "../../src/gen/grpc/health/v1/health.js";
export { GRPCControllerClient, GRPCControllerService } from "../../src/gen/plugin/grpc_controller.js";
export { certificateFieldToPem, type GeneratedCertificate, generateCertificate } from "../../src/grpc/auto-mtls.js";
export {
  fromServiceError,
  MAX_STATUS_HINT_BYTES,
  MAX_STATUS_MESSAGE_BYTES,
  type ToStatusOptions,
  toStatus,
} from "../../src/grpc/status-mapping.js";
export {
  callHealth,
  callShutdown,
  createClients,
  type PluginClients,
  type UnaryOptions,
  unaryCall,
} from "../../src/host/grpc-clients.js";
export { type HandshakeLine, HandshakeLineError, parseHandshakeLine } from "../../src/host/handshake-line.js";
export {
  type LaunchOptions,
  launchPlugin,
  type PluginExit,
  type PluginProcess,
} from "../../src/host/plugin-process.js";
export { sendNotification } from "../../src/host/send-notification.js";
export { NOT_LAUNCHED_BY_HOST_MESSAGE, negotiateVersion } from "../../src/plugin/plugin-env.js";
export type { PartialNotificationCall } from "../../src/runtime/notification-call.js";
