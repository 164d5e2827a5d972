import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { httpListener } from "../ops/http-listener.js";
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
  // Live log tails never end on their own: stop closes every connection.
  return httpListener(server, host, port);
}
