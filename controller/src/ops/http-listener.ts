import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Starting, stopping and finding an HTTP server of the controller's own (ops, console). */
export interface HttpListener {
  /** Where it listens; undefined before start and after stop. */
  readonly address: AddressInfo | undefined;
  /** Listens on `host:port` (0 picks a free port); rejects with the listen error. */
  start(): Promise<AddressInfo>;
  /** Closes it, and every connection with it (live streams never end on their own); safe when not listening. */
  stop(): Promise<void>;
}

/** The {@link HttpListener} of `server` on `host:port`. */
export function httpListener(server: Server, host: string, port: number): HttpListener {
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
        server.closeAllConnections();
      });
    },
  };
}
