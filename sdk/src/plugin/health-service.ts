import {
  status as GrpcStatus,
  type ServerUnaryCall,
  type ServerWritableStream,
  type sendUnaryData,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import { HEALTH_SERVICE_NAME } from "../version.js";
import { type HealthCheckRequest, type HealthCheckResponse, Serving } from "./early-services.js";

/** grpc.health.v1.Health and the switch that turns it to NOT_SERVING. */
export interface PluginHealth {
  implementation: UntypedServiceImplementation;
  /**
   * Shutdown has begun: every open Watch stream gets NOT_SERVING and is
   * ended (an open stream would hold the server's graceful close), and
   * Check answers NOT_SERVING from now on.
   */
  shutdown(): void;
}

/** grpc.health.v1.Health: "plugin" (go-plugin's name) and "" answer SERVING until shutdown begins, then NOT_SERVING. */
export function healthService(isShuttingDown: () => boolean): PluginHealth {
  const statusOf = (service: string): Serving | undefined => {
    if (service !== "" && service !== HEALTH_SERVICE_NAME) return undefined;
    return isShuttingDown() ? Serving.NOT_SERVING : Serving.SERVING;
  };
  const watchers = new Set<ServerWritableStream<HealthCheckRequest, HealthCheckResponse>>();

  const implementation: UntypedServiceImplementation = {
    check: (
      call: ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>,
      callback: sendUnaryData<HealthCheckResponse>,
    ) => {
      const status = statusOf(call.request.service);
      if (status === undefined) {
        callback({ code: GrpcStatus.NOT_FOUND, details: `unknown service ${JSON.stringify(call.request.service)}` });
        return;
      }
      callback(null, { status });
    },
    watch: (call: ServerWritableStream<HealthCheckRequest, HealthCheckResponse>) => {
      call.write({ status: statusOf(call.request.service) ?? Serving.SERVICE_UNKNOWN });
      if (isShuttingDown()) {
        call.end();
        return;
      }
      // Open until the host cancels it or shutdown begins.
      watchers.add(call);
      call.once("cancelled", () => watchers.delete(call));
    },
  };

  return {
    implementation,
    shutdown() {
      for (const call of watchers) {
        const status = statusOf(call.request.service);
        if (status !== undefined) call.write({ status });
        call.end();
      }
      watchers.clear();
    },
  };
}
