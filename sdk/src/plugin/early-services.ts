import type { ServerUnaryCall, sendUnaryData, UntypedServiceImplementation } from "@grpc/grpc-js";

// The services a plugin answers before its channel's first call: the health
// check and go-plugin's Shutdown. Their messages are one string, one enum or
// nothing, coded here by hand so that serving them loads neither the
// protobuf runtime nor the generated codecs (about 25 ms of a cold start,
// now spent after the handshake line; see deferred-channel-service.ts). A
// test keeps these definitions equal to the generated ones on the wire.

/** grpc.health.v1.HealthCheckResponse.ServingStatus. */
export const Serving = { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 } as const;
export type Serving = (typeof Serving)[keyof typeof Serving];

/** grpc.health.v1.HealthCheckRequest. */
export interface HealthCheckRequest {
  service: string;
}

/** grpc.health.v1.HealthCheckResponse. */
export interface HealthCheckResponse {
  status: Serving;
}

const text = new TextDecoder();

/** Reads a base-128 varint at `at`; returns its value (up to 2^53) and where it ends. */
function readVarint(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  for (let shift = 0, i = at; i < bytes.length && shift < 64; shift += 7, i++) {
    const byte = bytes[i]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, i + 1];
  }
  throw new RangeError("invalid varint: the message is truncated or malformed");
}

/** Decodes a HealthCheckRequest as the generated decoder does: unknown fields skipped, a truncated message refused. */
export function decodeHealthCheckRequest(bytes: Uint8Array): HealthCheckRequest {
  const message = { service: "" };
  let at = 0;
  while (at < bytes.length) {
    const [tag, next] = readVarint(bytes, at);
    at = next;
    const wireType = tag & 7;
    if (wireType === 4 || tag === 0) break; // the generated decoder stops here too
    let length = 0;
    if (wireType === 0) at = readVarint(bytes, at)[1];
    else if (wireType === 1) length = 8;
    else if (wireType === 5) length = 4;
    else if (wireType === 2) [length, at] = readVarint(bytes, at);
    else throw new RangeError(`HealthCheckRequest: wire type ${wireType} is not supported here`);
    if (at + length > bytes.length) throw new RangeError("HealthCheckRequest: the message is truncated");
    if (tag === 10) message.service = text.decode(bytes.subarray(at, at + length));
    at += length;
  }
  return message;
}

/** Encodes a HealthCheckResponse: field 1, the status, left out when it is 0 (proto3's default). */
export function encodeHealthCheckResponse(message: HealthCheckResponse): Buffer {
  const status = message.status;
  if (status === 0) return Buffer.alloc(0);
  const bytes = [0x08];
  for (let rest = status; ; rest >>>= 7) {
    if (rest < 0x80) {
      bytes.push(rest);
      break;
    }
    bytes.push((rest & 0x7f) | 0x80);
  }
  return Buffer.from(bytes);
}

const healthMethod = (name: string, responseStream: boolean) => ({
  path: `/grpc.health.v1.Health/${name}`,
  requestStream: false,
  responseStream,
  requestDeserialize: decodeHealthCheckRequest,
  responseSerialize: encodeHealthCheckResponse,
});

/** grpc.health.v1.Health for a server: Check and Watch. */
export const HEALTH_SERVICE = { check: healthMethod("Check", false), watch: healthMethod("Watch", true) };

/** plugin.GRPCController for a server: Shutdown takes and returns google.protobuf.Empty, whose fields are ignored. */
export const CONTROLLER_SERVICE = {
  shutdown: {
    path: "/plugin.GRPCController/Shutdown",
    requestStream: false,
    responseStream: false,
    requestDeserialize: (_bytes: Buffer): Record<string, never> => ({}),
    responseSerialize: (_message: Record<string, never>): Buffer => Buffer.alloc(0),
  },
};

/** go-plugin's plugin.GRPCController: Shutdown asks the plugin to exit. */
export function controllerService(requestShutdown: (reason: string) => void): UntypedServiceImplementation {
  return {
    shutdown: (_call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<Record<string, never>>) => {
      callback(null, {});
      // Answer first: the host waits for the reply before it waits for our exit.
      setImmediate(() => requestShutdown("the host called GRPCController/Shutdown"));
    },
  };
}
