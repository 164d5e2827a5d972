import { connect as http2Connect } from "node:http2";
import { connect as netConnect } from "node:net";
import type { HandshakeLine } from "@errand/channel-sdk/protocol";

/** How a raw call ended. */
export interface RawCallOutcome {
  /** grpc-status of the answer; undefined when none came. */
  status: number | undefined;
  /** Milliseconds from sending to the end of the call (or to giving up). */
  ms: number;
}

/**
 * Sends one unary gRPC request over plain HTTP/2 with a `grpc-timeout`
 * header but no client-side deadline, so the answer shows whether the
 * *plugin* ends a call at its deadline (grpc-js clients cancel locally and
 * would hide it). Gives up after `waitMs`.
 */
export function rawUnaryCall(
  line: HandshakeLine,
  path: string,
  message: Buffer,
  timeoutMs: number,
  waitMs: number,
): Promise<RawCallOutcome> {
  return new Promise((resolve) => {
    const started = Date.now();
    const session =
      line.network === "unix"
        ? http2Connect("http://localhost", { createConnection: () => netConnect(line.address) })
        : http2Connect(`http://${line.address}`);
    let done = false;
    const finish = (status: number | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      session.destroy();
      resolve({ status, ms: Date.now() - started });
    };
    const timer = setTimeout(() => finish(undefined), waitMs);
    session.on("error", () => finish(undefined));
    const frame = Buffer.alloc(5 + message.length);
    frame.writeUInt8(0, 0);
    frame.writeUInt32BE(message.length, 1);
    message.copy(frame, 5);
    const stream = session.request({
      ":method": "POST",
      ":path": path,
      "content-type": "application/grpc",
      te: "trailers",
      "grpc-timeout": `${timeoutMs}m`,
    });
    const statusOf = (headers: Record<string, unknown>) => {
      const value = headers["grpc-status"];
      return value === undefined ? undefined : Number(value);
    };
    stream.on("response", (headers) => {
      const status = statusOf(headers);
      if (status !== undefined) finish(status);
    });
    stream.on("trailers", (trailers) => finish(statusOf(trailers)));
    stream.on("data", () => {});
    stream.on("close", () => finish(undefined));
    stream.on("error", () => finish(undefined));
    stream.end(frame);
  });
}
