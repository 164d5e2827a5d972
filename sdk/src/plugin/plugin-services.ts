import {
  status as GrpcStatus,
  type handleUnaryCall,
  type ServerUnaryCall,
  type sendUnaryData,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import {
  type ChannelDefinition,
  interfaceVersionsOf,
  type NotifyResult,
  type TaskResult,
  type Ticket,
} from "../channel.js";
import {
  CancelledError,
  type ChannelError,
  DeadlineExceededError,
  InvalidArgumentError,
  toChannelError,
} from "../errors.js";
import type { HandshakeRequest, HandshakeResponse } from "../gen/errand/v1/common.js";
import type { NotifyCompleteRequest, NotifyRequest, NotifyStartRequest } from "../gen/errand/v1/notifications.js";
import { toStatus } from "../grpc/status-mapping.js";
import type { Logger } from "../logger.js";
import { CallController } from "../runtime/call-controller.js";
import type { ChannelRuntime, NotificationCall } from "../runtime/channel-runtime.js";
import type { CallTracker } from "./call-tracker.js";
import { readEnvironmentConfig } from "./environment-secrets.js";
import { UndecodableRequest } from "./request-decoding.js";

/** What the services need from the process that serves them. */
export interface ServiceHost<State> {
  runtime: ChannelRuntime<State>;
  definition: ChannelDefinition<State>;
  logger: Logger;
  /** Config and secrets the plugin found in its environment (used when no Handshake comes). */
  environmentSecrets: Record<string, string>;
  /** Called when the host asks the plugin to exit (GRPCController/Shutdown). */
  requestShutdown(reason: string): void;
  /** True once shutdown has begun. */
  isShuttingDown(): boolean;
  /** Secret values known now, masked in errors sent to the host as in the logs. */
  secrets(): Iterable<string>;
  /** Tracks every call until it is answered. */
  calls: CallTracker;
}

function missing(method: string, field: string, hint: string): InvalidArgumentError {
  return new InvalidArgumentError(`${method}: ${field} is missing`, { hint });
}

function requireTicket(method: string, ticket: Ticket | undefined): Ticket {
  if (!ticket)
    throw missing(
      method,
      "ticket",
      `the host must send the ticket the notification is about (field ticket of ${method}Request)`,
    );
  return ticket;
}

function requireResult(result: TaskResult | undefined): TaskResult {
  // Never a made-up failure: a host that lost the result must hear about it.
  if (!result)
    throw missing(
      "NotifyComplete",
      "result",
      "the host must send the task's TaskResult (success, summary, …) with NotifyComplete",
    );
  return result;
}

/** A controller tied to the call: client cancellation and its deadline abort it. */
function controllerForCall(call: ServerUnaryCall<unknown, unknown>): {
  controller: CallController;
  dispose: () => void;
} {
  const controller = new CallController();
  const deadline = call.getDeadline();
  const deadlineMs = deadline instanceof Date ? deadline.getTime() : Number(deadline);
  const expired = () => new DeadlineExceededError("the call's deadline passed before the channel finished");
  // The host's own deadline timer often cancels the stream a moment before
  // ours fires; a cancellation at the deadline is reported as the deadline.
  const onCancel = () =>
    controller.abort(Date.now() >= deadlineMs - 25 ? expired() : new CancelledError("the host cancelled the call"));
  call.once("cancelled", onCancel);
  let timer: NodeJS.Timeout | undefined;
  if (Number.isFinite(deadlineMs)) {
    timer = setTimeout(() => controller.abort(expired()), Math.max(0, deadlineMs - Date.now()));
  }
  return {
    controller,
    dispose: () => {
      clearTimeout(timer);
      call.removeListener("cancelled", onCancel);
    },
  };
}

/** The errand.v1.NotificationChannel implementation around a runtime. */
export function notificationChannelService<State>(host: ServiceHost<State>): UntypedServiceImplementation {
  const { runtime, definition, logger } = host;
  const fail = (callback: sendUnaryData<never>, error: ChannelError) => {
    callback(toStatus(error, { secrets: host.secrets() }) as Parameters<typeof callback>[0]);
  };
  const supported = interfaceVersionsOf(definition as ChannelDefinition<unknown>);
  /** Why a request must be answered before it reaches the channel (it did not decode, or shutdown began), or undefined. */
  const refusal = (request: unknown): ChannelError | undefined => {
    if (request instanceof UndecodableRequest) {
      logger.warn("refused a request that could not be decoded", { error: request.error });
      return request.error;
    }
    return host.isShuttingDown() ? new CancelledError(`channel ${definition.name} is shutting down`) : undefined;
  };
  let initializing: Promise<void> | undefined;

  // A go-plugin host never calls Handshake, so the first notification
  // initializes the channel from the environment instead.
  const ensureInitialized = () => {
    if (runtime.isInitialized) return Promise.resolve();
    initializing ??= runtime.initialize(readEnvironmentConfig(process.env), host.environmentSecrets).finally(() => {
      initializing = undefined;
    });
    return initializing;
  };

  const handshake: handleUnaryCall<HandshakeRequest, HandshakeResponse> = async (call, callback) => {
    const end = host.calls.begin();
    try {
      await answerHandshake(call, callback);
    } finally {
      end();
    }
  };

  const answerHandshake: handleUnaryCall<HandshakeRequest, HandshakeResponse> = async (call, callback) => {
    const refused = refusal(call.request);
    if (refused) {
      fail(callback, refused);
      return;
    }
    await completeHandshake(host, supported, call.request, callback, fail);
  };

  const unary =
    <Req>(toCall: (request: Req) => NotificationCall): handleUnaryCall<Req, NotifyResult> =>
    async (call, callback) => {
      const refused = refusal(call.request);
      if (refused) {
        fail(callback, refused);
        return;
      }
      const request = call.request;
      const end = host.calls.begin();
      const { controller, dispose } = controllerForCall(call);
      try {
        const notification = toCall(request);
        if (!runtime.isInitialized) await ensureInitialized();
        const result = await runtime.dispatch(notification, controller);
        callback(null, { deliveryId: result.deliveryId ?? "" });
      } catch (error) {
        const channelError = toChannelError(error);
        logger.warn("notification failed", { error: channelError, hint: channelError.hint });
        fail(callback, channelError);
      } finally {
        dispose();
        end();
      }
    };

  return {
    handshake,
    notify: unary(notifyCall),
    notifyStart: unary(notifyStartCall),
    notifyComplete: unary(notifyCompleteCall),
  };
}

const notifyCall = (r: NotifyRequest): NotificationCall => ({
  kind: "notify",
  message: r.message,
  ticket: requireTicket("Notify", r.ticket),
  taskRunId: r.taskRunId,
});
const notifyStartCall = (r: NotifyStartRequest): NotificationCall => ({
  kind: "notifyStart",
  ticket: requireTicket("NotifyStart", r.ticket),
  taskRunId: r.taskRunId,
  engine: r.engine,
});
const notifyCompleteCall = (r: NotifyCompleteRequest): NotificationCall => ({
  kind: "notifyComplete",
  ticket: requireTicket("NotifyComplete", r.ticket),
  taskRunId: r.taskRunId,
  result: requireResult(r.result),
});

/** Agrees on the interface version and initializes the channel with the Handshake's config and secrets. */
async function completeHandshake<State>(
  host: ServiceHost<State>,
  supported: readonly number[],
  request: HandshakeRequest,
  callback: sendUnaryData<HandshakeResponse>,
  fail: (callback: sendUnaryData<never>, error: ChannelError) => void,
): Promise<void> {
  const { runtime, definition, logger } = host;
  const requested = request.interfaceVersion;
  if (!supported.includes(requested)) {
    logger.error("handshake refused: unsupported interface version", { requested, supported });
    callback({
      code: GrpcStatus.FAILED_PRECONDITION,
      details: `interface version ${requested} is not supported by channel ${definition.name} ${definition.version}; it supports ${supported.join(", ")}`,
    });
    return;
  }
  try {
    const secrets = { ...host.environmentSecrets, ...request.secrets };
    await runtime.initialize(request.config ?? {}, secrets);
    logger.info("handshake complete", {
      interfaceVersion: requested,
      host: request.hostName || undefined,
      hostVersion: request.hostVersion || undefined,
      secrets: Object.keys(secrets),
    });
    callback(null, {
      interfaceVersion: requested,
      supportedVersions: [...supported],
      name: definition.name,
      version: definition.version,
    });
  } catch (error) {
    const channelError = toChannelError(error);
    logger.error("channel init failed", { error: channelError, hint: channelError.hint });
    fail(callback, channelError);
  }
}
