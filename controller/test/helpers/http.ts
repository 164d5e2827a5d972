import { request as httpRequest, type IncomingHttpHeaders } from "node:http";

/** A finished HTTP exchange. */
export interface HttpResult {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  json: any;
}

/** Options of {@link send}. */
export interface SendOptions {
  method?: string;
  headers?: Record<string, string | number>;
  body?: string | Buffer;
}

/**
 * One real HTTP request over a fresh connection. Only the headers given are
 * sent (plus Host and Content-Length), so tests control the exact bytes.
 */
export function send(base: string, path: string, options: SendOptions = {}): Promise<HttpResult> {
  // The path is sent verbatim (no URL normalisation), so tests can send odd paths.
  const url = new URL(base);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const headers: Record<string, string | number> = { ...options.headers };
  if (body !== undefined && headers["content-length"] === undefined) headers["content-length"] = body.length;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname: url.hostname, port: url.port, path, method: options.method ?? "POST", headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** POSTs a JSON value (or raw string) with `content-type: application/json`. */
export function postJson(
  base: string,
  path: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  const body = typeof payload === "string" ? payload : JSON.stringify(payload);
  return send(base, path, { body, headers: { "content-type": "application/json", ...headers } });
}
