import {
  status as GrpcStatus,
  type handleUnaryCall,
  type Server,
  type ServerUnaryCall,
  type ServiceDefinition,
  type sendUnaryData,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import type { ServiceHost } from "./plugin-services.js";

/** errand.v1.NotificationChannel's methods, by implementation key; a test keeps them equal to the generated definition. */
export const CHANNEL_METHODS = {
  handshake: "/errand.v1.NotificationChannel/Handshake",
  notify: "/errand.v1.NotificationChannel/Notify",
  notifyStart: "/errand.v1.NotificationChannel/NotifyStart",
  notifyComplete: "/errand.v1.NotificationChannel/NotifyComplete",
} as const;

interface LoadedService {
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

/** The channel's service and its codecs: the generated ones and the protobuf runtime load with these modules. */
async function loadChannelService(host: ServiceHost<unknown>): Promise<LoadedService> {
  const [{ notificationChannelService }, { decodingGuardedService }] = await Promise.all([
    import("./plugin-services.js"),
    import("./request-decoding.js"),
  ]);
  return {
    definition: decodingGuardedService() as unknown as ServiceDefinition,
    implementation: notificationChannelService(host),
  };
}

const passBytes = (bytes: Buffer) => bytes;

/**
 * Registers errand.v1.NotificationChannel on `server` before its codecs are
 * loaded, so the handshake line can be written without them (the protobuf
 * runtime and the generated codecs are about 25 ms of a cold start). Call
 * the returned `load` once the line is written: the modules then load while
 * the host connects and checks health, and the service with its codecs
 * takes the place of this one. A call that comes before that waits for the
 * load and is then answered as any other; if the modules cannot load, every
 * call is answered INTERNAL, naming the error.
 */
export function deferChannelService(server: Server, host: ServiceHost<unknown>): { load(): void } {
  let loading: Promise<LoadedService> | undefined;
  const loaded = () => {
    loading ??= loadChannelService(host);
    return loading;
  };
  const definition: Record<string, unknown> = {};
  const implementation: UntypedServiceImplementation = {};
  for (const [key, path] of Object.entries(CHANNEL_METHODS)) {
    definition[key] = {
      path,
      requestStream: false,
      responseStream: false,
      requestDeserialize: passBytes,
      responseSerialize: passBytes,
    };
    implementation[key] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      loaded().then(
        (service) => answerLoaded(service, key, call, callback),
        (error: unknown) => callback({ code: GrpcStatus.INTERNAL, details: cannotLoad(error) }),
      );
    };
  }
  const placeholder = definition as ServiceDefinition;
  server.addService(placeholder, implementation);
  return {
    load() {
      loaded().then(
        (service) => {
          server.removeService(placeholder);
          server.addService(service.definition, service.implementation);
        },
        (error: unknown) => host.logger.error(cannotLoad(error), { error }),
      );
    },
  };
}

/** Answers a call that came in as bytes with the loaded service: its codecs decode the request and encode the answer. */
function answerLoaded(
  { definition, implementation }: LoadedService,
  key: string,
  call: ServerUnaryCall<unknown, unknown>,
  callback: sendUnaryData<unknown>,
): void {
  const method = definition[key]!;
  // The guarded deserializer never throws: an undecodable request becomes a value its handler refuses.
  (call as { request: unknown }).request = method.requestDeserialize(call.request as Buffer);
  const handler = implementation[key] as handleUnaryCall<unknown, unknown>;
  handler(call, (error, value, trailer, flags) =>
    callback(error, value === null || value === undefined ? value : method.responseSerialize(value), trailer, flags),
  );
}

function cannotLoad(error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return `the plugin could not load its errand.v1 codecs (${reason}); reinstall the plugin's dependencies (@errand/channel-sdk, @bufbuild/protobuf)`;
}
