import { type ChannelCredentials, type Client, Metadata, type ServiceError } from "@grpc/grpc-js";
import { NotificationChannelClient } from "../gen/errand/v1/notifications.js";
import { HealthClient, HealthCheckResponse_ServingStatus as Serving } from "../gen/grpc/health/v1/health.js";
import { GRPCControllerClient } from "../gen/plugin/grpc_controller.js";
import { checkDuration } from "../runtime/call-options.js";
import { HEALTH_SERVICE_NAME } from "../version.js";

/** The three services a host talks to, over one connection. */
export interface PluginClients {
  channel: NotificationChannelClient;
  health: HealthClient;
  controller: GRPCControllerClient;
  close(): void;
}

const CHANNEL_OPTIONS = {
  // AutoMTLS certificates name "localhost"; a Unix socket target has no host name.
  "grpc.ssl_target_name_override": "localhost",
  "grpc.default_authority": "localhost",
  "grpc.max_receive_message_length": 16 * 1024 * 1024,
  // A local plugin that stops answering is dead, not slow: fail fast.
  "grpc.initial_reconnect_backoff_ms": 100,
  "grpc.max_reconnect_backoff_ms": 1000,
};

/** Creates clients for the plugin at `target` sharing one HTTP/2 connection. */
export function createClients(target: string, credentials: ChannelCredentials): PluginClients {
  const channel = new NotificationChannelClient(target, credentials, CHANNEL_OPTIONS);
  const shared = { channelOverride: channel.getChannel() };
  const health = new HealthClient(target, credentials, shared);
  const controller = new GRPCControllerClient(target, credentials, shared);
  return { channel, health, controller, close: () => channel.close() };
}

type UnaryMethod = (
  request: unknown,
  metadata: Metadata,
  options: { deadline: Date },
  callback: (error: ServiceError | null, response: unknown) => void,
) => { cancel(): void };

/** Per-call options of {@link unaryCall}. */
export interface UnaryOptions {
  /** The call's deadline in milliseconds: above 0 and at most 2^31-1. */
  timeoutMs: number;
  signal?: AbortSignal;
}

type RequestOf<F> = F extends (request: infer Req, ...rest: never[]) => unknown ? Req : never;
type ResponseOf<F> = F extends (
  request: never,
  metadata: Metadata,
  options: never,
  callback: (error: ServiceError | null, response: infer Res) => void,
) => unknown
  ? Res
  : never;

/**
 * Calls a unary method with a deadline; the AbortSignal cancels the call.
 * Rejects with the raw ServiceError so the caller can map it, or with an
 * InvalidArgumentError for a `timeoutMs` gRPC cannot express (which gRPC
 * would otherwise throw later, outside any promise, and crash the process).
 */
export function unaryCall<C extends Client, K extends keyof C>(
  client: C,
  method: K,
  request: RequestOf<C[K]>,
  options: UnaryOptions,
): Promise<ResponseOf<C[K]>> {
  const fn = client[method] as unknown as UnaryMethod;
  return new Promise((resolve, reject) => {
    const timeoutMs = checkDuration(options.timeoutMs, "timeoutMs", `${String(method)} call`, 5000);
    const onAbort = () => call.cancel();
    const call = fn.call(
      client,
      request,
      new Metadata(),
      { deadline: new Date(Date.now() + timeoutMs) },
      (error, response) => {
        options.signal?.removeEventListener("abort", onAbort);
        if (error) reject(error);
        else resolve(response as ResponseOf<C[K]>);
      },
    );
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** go-plugin's health check: service "plugin" must be SERVING. */
export async function callHealth(clients: PluginClients, timeoutMs: number): Promise<void> {
  const response = await unaryCall(clients.health, "check", { service: HEALTH_SERVICE_NAME }, { timeoutMs });
  if (response.status !== Serving.SERVING) {
    throw new Error(
      `service "${HEALTH_SERVICE_NAME}" reports ${Serving[response.status] ?? response.status}, not SERVING`,
    );
  }
}

/** Asks the plugin to exit (go-plugin's GRPCController/Shutdown). */
export async function callShutdown(clients: PluginClients, timeoutMs = 1000): Promise<void> {
  await unaryCall(clients.controller, "shutdown", {}, { timeoutMs });
}
