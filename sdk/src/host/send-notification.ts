import {
  type NotificationChannelClient,
  NotifyCompleteRequest,
  NotifyRequest,
  NotifyStartRequest,
} from "../gen/errand/v1/notifications.js";
import { argumentError, describeValue } from "../runtime/argument-error.js";
import type { NotificationCall, PartialNotificationCall } from "../runtime/notification-call.js";
import { type UnaryOptions, unaryCall } from "./grpc-clients.js";

/** What a plugin answers to any of the three notification calls. */
export interface NotificationAnswer {
  /** The target's identifier for the delivered message; `""` when it gave none. */
  deliveryId: string;
}

/**
 * Sends one notification through a plugin's NotificationChannel client:
 * Notify, NotifyStart or NotifyComplete by `call.kind`, with the request
 * made from the call's other fields (any left out go unset, as proto3's
 * defaults). Sends the call as given: it does not check it the way
 * `connectChannel`'s channel does, so a tool can send what a host might.
 * Rejects with the raw gRPC ServiceError, or with an InvalidArgumentError
 * for a `kind` that is none of the three or a `timeoutMs` gRPC cannot
 * express; never throws. `signal` cancels the call.
 */
export async function sendNotification(
  client: NotificationChannelClient,
  call: PartialNotificationCall,
  options: UnaryOptions,
): Promise<NotificationAnswer> {
  // The generated fromPartial copies every field its message has and fills
  // the rest, so a field added to the .proto reaches the plugin unchanged here.
  switch (call?.kind) {
    case "notify":
      return unaryCall(client, "notify", NotifyRequest.fromPartial(call), options);
    case "notifyStart":
      return unaryCall(client, "notifyStart", NotifyStartRequest.fromPartial(call), options);
    case "notifyComplete":
      return unaryCall(client, "notifyComplete", NotifyCompleteRequest.fromPartial(call), options);
    default: {
      const kind: unknown = (call as { kind?: unknown } | null)?.kind;
      throw argumentError(
        "sendNotification",
        "call.kind",
        `must be "notify", "notifyStart" or "notifyComplete", got ${describeValue(kind)}`,
        "pass one of the three operations as call.kind",
      );
    }
  }
}

/**
 * Sends a call whose every field is set (as checkNotificationCall returns
 * it): the call itself is the request, since the generated encoders read
 * only their own message's fields and `kind` is none of them. Nothing is
 * copied, which keeps the controller's notifier cheap per call.
 */
export function sendCheckedCall(
  client: NotificationChannelClient,
  call: NotificationCall,
  options: UnaryOptions,
): Promise<NotificationAnswer> {
  switch (call.kind) {
    case "notify":
      return unaryCall(client, "notify", call, options);
    case "notifyStart":
      return unaryCall(client, "notifyStart", call, options);
    case "notifyComplete":
      return unaryCall(client, "notifyComplete", call, options);
  }
}
