import { describe, expect, it } from "vitest";
import { postJson } from "./helpers/http.js";
import { hasHead, rawConnect } from "./helpers/raw.js";
import { requestCount, startServer } from "./helpers/server.js";

const head = (path: string, extra: string) =>
  `POST ${path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n${extra}\r\n`;

describe("limits and slow clients", () => {
  it("refuses a declared Content-Length over max_body_bytes with 413 before the body is sent", async () => {
    const t = await startServer({ max_body_bytes: 4096 });
    const c = await rawConnect(t.port);
    c.socket.write(head("/webhooks/tracker", "Content-Length: 10485760\r\n"));
    c.socket.write("{".padEnd(1000, " "));
    const text = await c.waitFor(hasHead);
    expect(text.startsWith("HTTP/1.1 413")).toBe(true);
    expect(text.toLowerCase()).toContain("connection: close");
    expect(text).toContain("ERR_PAYLOAD_TOO_LARGE");
    await c.closed;
  });

  it("refuses a chunked body as soon as it crosses the limit, without waiting for the rest", async () => {
    const t = await startServer({ max_body_bytes: 4096 });
    const c = await rawConnect(t.port);
    c.socket.write(head("/webhooks/tracker", "Transfer-Encoding: chunked\r\n"));
    const chunk = "x".repeat(3000);
    c.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    c.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    // The terminating chunk is never sent: a server that buffered everything would wait forever.
    const text = await c.waitFor(hasHead);
    expect(text.startsWith("HTTP/1.1 413")).toBe(true);
    await c.closed;
    expect(t.tickets).toHaveLength(0);
  });

  it("accepts a body of exactly max_body_bytes", async () => {
    const t = await startServer({ max_body_bytes: 4096 });
    const base = JSON.stringify({ actions: [], pad: "" });
    const body = JSON.stringify({ actions: [], pad: "p".repeat(4096 - base.length) });
    expect(Buffer.byteLength(body)).toBe(4096);
    expect((await postJson(t.base, "/webhooks/tracker", body)).status).toBe(200);
    expect((await postJson(t.base, "/webhooks/tracker", `${body} `)).status).toBe(413);
  });

  it("answers 431 to oversized headers", async () => {
    const t = await startServer({ max_header_bytes: 4096 });
    const c = await rawConnect(t.port);
    c.socket.write(head("/webhooks/tracker", `X-Big: ${"a".repeat(8000)}\r\nContent-Length: 2\r\n`));
    const text = await c.waitFor(hasHead);
    expect(text.startsWith("HTTP/1.1 431")).toBe(true);
    expect(text).toContain("ERR_HEADERS_TOO_LARGE");
  });

  it("answers 400 to bytes that are not HTTP, and keeps serving", async () => {
    const t = await startServer({});
    const c = await rawConnect(t.port);
    c.socket.write("\x00\x01GARBAGE\r\n\r\n");
    const text = await c.waitFor(hasHead);
    expect(text.startsWith("HTTP/1.1 400")).toBe(true);
    expect((await postJson(t.base, "/webhooks/tracker", { actions: [] })).status).toBe(200);
  });

  it("times out a client that sends its headers too slowly", async () => {
    const t = await startServer({ timeouts: { headers_ms: 300, request_ms: 600 } });
    const c = await rawConnect(t.port);
    c.socket.write("POST /webhooks/tracker HTTP/1.1\r\nHost: t\r\n");
    const started = Date.now();
    const text = await c.waitFor(hasHead, 5000);
    expect(text.startsWith("HTTP/1.1 408")).toBe(true);
    await c.closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    // The client's close after the 408 is not a second, malformed request.
    await new Promise((r) => setTimeout(r, 100));
    expect(await requestCount(t, "request_timeout")).toBe(1);
    expect(await requestCount(t, "bad_request")).toBe(0);
  });

  it("times out a client that sends its body too slowly", async () => {
    const t = await startServer({ timeouts: { headers_ms: 300, request_ms: 600 } });
    const c = await rawConnect(t.port);
    c.socket.write(head("/webhooks/tracker", "Content-Length: 100\r\n"));
    c.socket.write('{"actions":');
    await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1.1 408/);
    expect(t.tickets).toHaveLength(0);
  });
});
