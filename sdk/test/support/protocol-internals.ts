// Everything the SDK tests reach below the public entry points: the wire
// pieces (generated messages, process launch, status mapping, certificates).
export {
  Ticket,
  TaskResult,
  TokenUsage,
  HandshakeRequest,
  HandshakeResponse,
} from "../../src/gen/errand/v1/common.js";
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
} from "../../src/gen/errand/v1/notifications.js";
export {
  HealthClient,
  HealthService,
  HealthCheckRequest,
  HealthCheckResponse,
  HealthCheckResponse_ServingStatus,
} from "../../src/gen/grpc/health/v1/health.js";
export { GRPCControllerClient, GRPCControllerService } from "../../src/gen/plugin/grpc_controller.js";
export { parseHandshakeLine, HandshakeLineError, type HandshakeLine } from "../../src/host/handshake-line.js";
export { launchPlugin, type LaunchOptions, type PluginProcess, type PluginExit } from "../../src/host/plugin-process.js";
export { createClients, unaryCall, callHealth, callShutdown, type PluginClients, type UnaryOptions } from "../../src/host/grpc-clients.js";
export {
  fromServiceError,
  MAX_STATUS_HINT_BYTES,
  MAX_STATUS_MESSAGE_BYTES,
  toStatus,
  type ToStatusOptions,
} from "../../src/grpc/status-mapping.js";
export { generateCertificate, certificateFieldToPem, type GeneratedCertificate } from "../../src/grpc/auto-mtls.js";
export { negotiateVersion, NOT_LAUNCHED_BY_HOST_MESSAGE } from "../../src/plugin/plugin-env.js";
