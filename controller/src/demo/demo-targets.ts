import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readJson } from "./read-json.js";

/** A message one of the demo's chat targets received. */
export interface DemoMessage {
  target: "chat_a" | "webhook_post";
  text: string;
  /** chat_a's Block Kit blocks, as posted (a digest lists its notifications there). */
  blocks?: unknown;
}

/** The embedded stand-ins for the chat platforms the demo's channels post to. */
export interface DemoTargets {
  /** Base URL for chat_a's `api_base_url`. */
  chatApiUrl: string;
  /** URL the example webhook_post plugin posts to. */
  hookUrl: string;
  close(): Promise<void>;
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

/**
 * Starts one local HTTP server that answers like chat A's `chat.postMessage`
 * (Bearer token required, `ok:true` with a `ts`, `ok:false` errors in a 200
 * as the platform does) and like a plain webhook receiver, and hands each
 * message's text to `onMessage`. Nothing leaves 127.0.0.1.
 */
export async function startDemoTargets(token: string, onMessage: (m: DemoMessage) => void): Promise<DemoTargets> {
  let seq = 0;
  const seen = new Set<string>();
  const server = createServer((req, res) => {
    void readJson(req).then((body) => {
      if (req.method === "POST" && req.url === "/api/chat.postMessage") {
        if (req.headers.authorization !== `Bearer ${token}`)
          return reply(res, 200, { ok: false, error: "invalid_auth" });
        if (body === undefined || typeof body.channel !== "string")
          return reply(res, 200, { ok: false, error: "invalid_arguments" });
        onMessage({ target: "chat_a", text: String(body.text ?? ""), blocks: body.blocks });
        return reply(res, 200, {
          ok: true,
          channel: body.channel,
          ts: `${Math.floor(Date.now() / 1000)}.${String(++seq).padStart(6, "0")}`,
        });
      }
      if (req.method === "POST" && req.url === "/hook") {
        if (body === undefined) return reply(res, 400, { error: "body is not JSON" });
        // A retried POST (its first attempt timed out but arrived) is shown once, as a careful receiver would.
        const key = req.headers["idempotency-key"];
        if (typeof key === "string" && seen.has(key)) return reply(res, 200, { received: true, duplicate: true });
        if (typeof key === "string") seen.add(key);
        onMessage({ target: "webhook_post", text: String(body.text ?? "") });
        return reply(res, 200, { received: true });
      }
      reply(res, 404, { error: "not found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    chatApiUrl: `http://127.0.0.1:${port}/api`,
    hookUrl: `http://127.0.0.1:${port}/hook`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
