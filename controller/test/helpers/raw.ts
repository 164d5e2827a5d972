import { connect, type Socket } from "node:net";

/** A raw TCP client that collects what the server sends and notices when it closes. */
export interface RawClient {
  socket: Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves once the received text matches, or rejects after `ms`. */
  waitFor(predicate: (text: string) => boolean, ms?: number): Promise<string>;
  /** Resolves when the server closed the connection. */
  closed: Promise<void>;
}

/** Opens a raw connection to 127.0.0.1:`port`. */
export function rawConnect(port: number): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let data = "";
    const waiters: Array<() => void> = [];
    socket.on("data", (d) => {
      data += d.toString("latin1");
      for (const w of waiters.splice(0)) w();
    });
    socket.on("error", () => {});
    const closed = new Promise<void>((r) => socket.on("close", () => r()));
    socket.once("connect", () =>
      resolve({
        socket,
        received: () => data,
        closed,
        waitFor(predicate, ms = 5000) {
          return new Promise((ok, fail) => {
            const timer = setTimeout(
              () => fail(new Error(`timed out; received: ${JSON.stringify(data.slice(0, 300))}`)),
              ms,
            );
            const check = () => {
              if (predicate(data)) {
                clearTimeout(timer);
                ok(data);
              } else waiters.push(check);
            };
            check();
            void closed.then(() => {
              if (!predicate(data)) {
                clearTimeout(timer);
                fail(new Error(`closed; received: ${JSON.stringify(data.slice(0, 300))}`));
              }
            });
          });
        },
      }),
    );
    socket.once("error", reject);
  });
}

/** True once a full response head has arrived. */
export const hasHead = (text: string) => text.includes("\r\n\r\n");
