import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A chat service's web API on 127.0.0.1 that answers every post as accepted and keeps its body. */
export interface ChatApi {
  /** The base URL a bot-api plugin's api_base_url takes. */
  url: string;
  /** The bodies posted, in order. */
  posted: readonly string[];
  close: () => Promise<void>;
}

/** Starts a {@link ChatApi} on a free port. */
export async function startChatApi(): Promise<ChatApi> {
  const posted: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      posted.push(body);
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ ok: true, ts: "1700000000.000100" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  return { url, posted, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
