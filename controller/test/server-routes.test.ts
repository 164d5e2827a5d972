import { describe, expect, it } from "vitest";
import { postJson, send } from "./helpers/http.js";
import { hasHead, rawConnect } from "./helpers/raw.js";
import { requestCount, startServer } from "./helpers/server.js";

describe("routes", () => {
  it("answers GET and HEAD /healthz with ok, anything else with 405 and Allow", async () => {
    const t = await startServer({});
    const get = await send(t.base, "/healthz", { method: "GET" });
    expect([get.status, get.text, get.headers["content-type"]]).toEqual([200, "ok", "text/plain; charset=utf-8"]);
    const head = await send(t.base, "/healthz", { method: "HEAD" });
    expect([head.status, head.text]).toEqual([200, ""]);
    const post = await send(t.base, "/healthz", { method: "POST", body: "" });
    expect([post.status, post.headers.allow]).toEqual([405, "GET, HEAD"]);
  });

  it("answers 405 with Allow: POST for other methods on webhook routes", async () => {
    const t = await startServer({});
    for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
      const res = await send(t.base, "/webhooks/tracker", { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.allow).toBe("POST");
      expect(res.json.error.code).toBe("ERR_METHOD_NOT_ALLOWED");
    }
  });

  it("answers CONNECT with 405 and Allow, closes the connection, and counts it once", async () => {
    const t = await startServer({});
    const c = await rawConnect(t.port);
    c.socket.write("CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n");
    await c.closed;
    const text = c.received();
    expect(text).toMatch(/^HTTP\/1.1 405 Method Not Allowed\r\n/);
    expect(text.toLowerCase()).toContain("\r\nallow: get, head, post\r\n");
    expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)).error.code).toBe("ERR_METHOD_NOT_ALLOWED");
    expect(await requestCount(t, "method_not_allowed")).toBe(1);
  });

  it("routes a request target in absolute form by its path", async () => {
    const t = await startServer({});
    const c = await rawConnect(t.port);
    const body = JSON.stringify({ actions: [{ id: 5, entity_type: "story", action: "update", name: "S5" }] });
    c.socket.write(
      `POST http://127.0.0.1:${t.port}/webhooks/tracker?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    const text = await c.waitFor((s) => hasHead(s) && s.endsWith("}"));
    expect(text).toMatch(/^HTTP\/1.1 200 /);
    expect(text).toContain('{"status":"accepted","tickets":["5"]}');
    c.socket.destroy();
  });

  it("answers 404 for unknown routes, the singular /webhook prefix included", async () => {
    const t = await startServer({});
    for (const path of [
      "/",
      "/webhook/tracker",
      "/webhooks",
      "/webhooks/jira",
      "/webhooks/tracker/x",
      "/WEBHOOKS/tracker",
    ]) {
      const res = await postJson(t.base, path, {});
      expect(res.status, path).toBe(404);
      expect(res.json.error.code).toBe("ERR_NOT_FOUND");
    }
  });

  it("answers 404 naming the key to set for every source that is not configured", async () => {
    const t = await startServer({});
    const expectations: Array<[string, string]> = [
      ["/webhooks/codehost-a", "webhook.secrets.codehost_a"],
      ["/webhooks/github", "webhook.secrets.github"],
      ["/webhooks/codehost-b", "webhook.secrets.codehost_b"],
      ["/webhooks/gitlab", "webhook.secrets.gitlab"],
      ["/webhooks/chat", "webhook.secrets.chat_a"],
      ["/webhooks/slack", "webhook.secrets.slack"],
      ["/webhooks/generic", "webhook.generic"],
    ];
    for (const [path, key] of expectations) {
      const res = await postJson(t.base, path, { id: 1 });
      expect(res.status, path).toBe(404);
      expect(res.json.error.code).toBe("ERR_SOURCE_NOT_CONFIGURED");
      expect(res.json.error.message).toContain(key);
    }
    expect(t.tickets).toHaveLength(0);
    expect(t.server.sources).toEqual(["tracker_b"]);
  });

  it("routes with a query string or one trailing slash", async () => {
    const t = await startServer({});
    const res = await postJson(t.base, "/webhooks/shortcut/?src=test", { actions: [] });
    expect(res.json.status).toBe("ignored");
  });

  it("serves Prometheus metrics per source and outcome at GET /metrics, unless turned off", async () => {
    const t = await startServer({});
    await postJson(t.base, "/webhooks/tracker", {
      actions: [{ id: 1, entity_type: "story", action: "update", name: "n" }],
    });
    await postJson(t.base, "/webhooks/tracker", "nope");
    const res = await send(t.base, "/metrics", { method: "GET" });
    expect(res.status).toBe(200);
    expect(res.text).toContain('errand_webhook_requests_total{source="tracker_b",outcome="accepted"} 1');
    expect(res.text).toContain('errand_webhook_requests_total{source="tracker_b",outcome="bad_request"} 1');
    expect(res.text).toContain(
      'errand_webhook_request_duration_seconds_bucket{le="0.001",source="tracker_b",outcome="accepted"}',
    );
    expect(res.text).toContain('errand_webhook_tickets_total{source="tracker_b"} 1');
    const off = await startServer({ metrics: false });
    expect((await send(off.base, "/metrics", { method: "GET" })).status).toBe(404);
  });

  it("answers 415 for content types a source does not take, and takes JSON without a content type", async () => {
    const t = await startServer({});
    const body = JSON.stringify({ actions: [] });
    const res = await send(t.base, "/webhooks/tracker", { body, headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(415);
    const multipart = await send(t.base, "/webhooks/tracker", {
      body,
      headers: { "content-type": "multipart/form-data; boundary=x" },
    });
    expect(multipart.status).toBe(415);
    const charset = await send(t.base, "/webhooks/tracker", {
      body,
      headers: { "content-type": "Application/JSON; charset=utf-8" },
    });
    expect(charset.status).toBe(200);
    const bare = await send(t.base, "/webhooks/tracker", { body });
    expect(bare.status).toBe(200);
  });
});
