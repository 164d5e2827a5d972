import type { AddressInfo } from "node:net";
import { connect, createServer, type Socket } from "node:net";

/** One TCP connection through the relay. */
export interface RelayConnection {
  openedAt: number;
  closedAt: number | undefined;
  /** Last time the plugin sent bytes (a request). */
  lastRequestAt: number;
  /** Last time the sink sent bytes (a response). */
  lastResponseAt: number;
}

/** A TCP relay in front of the sink that sees when the plugin drops a connection. */
export interface Relay {
  url: string;
  readonly connections: RelayConnection[];
  /** Connections still open whose last request got no response yet. */
  awaiting(): RelayConnection[];
  close(): Promise<void>;
}

/** Starts a relay on 127.0.0.1 that forwards to `port`. */
export async function startRelay(port: number): Promise<Relay> {
  const connections: RelayConnection[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const record: RelayConnection = { openedAt: Date.now(), closedAt: undefined, lastRequestAt: 0, lastResponseAt: 0 };
    connections.push(record);
    const upstream = connect(port, "127.0.0.1");
    sockets.add(client).add(upstream);
    client.on("data", (chunk) => {
      record.lastRequestAt = Date.now();
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      record.lastResponseAt = Date.now();
      client.write(chunk);
    });
    const end = () => {
      record.closedAt ??= Date.now();
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      socket.on("close", end);
      socket.on("error", end);
      socket.on("end", end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    connections,
    awaiting: () => connections.filter((c) => c.closedAt === undefined && c.lastRequestAt > c.lastResponseAt),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
