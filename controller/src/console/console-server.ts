import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ConsoleHandler } from "./console-router.js";
import { send } from "./http-bits.js";

/** The console on a port of its own (`console.port`), when it is not served by the ops server. */
export interface ConsoleServer {
  start(): Promise<AddressInfo>;
  stop(): Promise<void>;
  readonly address: AddressInfo | undefined;
}

/** A server answering `/console/...` with `handler` and 404 to anything else. */
export function createConsoleServer(handler: ConsoleHandler, host: string, port: number): ConsoleServer {
  const server = createServer((req, res) => {
    if (!handler.handle(req, res)) {
      send(req, res, 404, "text/plain; charset=utf-8", "not found: the console is at /console/\n");
    }
  });
  return {
    get address() {
      const a = server.address();
      return a !== null && typeof a === "object" ? a : undefined;
    },
    start() {
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          resolve(server.address() as AddressInfo);
        });
      });
    },
    stop() {
      return new Promise((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        // Live log tails never end on their own.
        server.closeAllConnections();
      });
    },
  };
}
