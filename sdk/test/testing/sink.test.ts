import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Sink, startSink } from "../../src/testing/sink.js";

const since = (start: number) => performance.now() - start;

let sink: Sink;
beforeEach(async () => {
  sink = await startSink();
});
afterEach(async () => {
  await sink.close();
});

async function post(path: string, body: unknown = { n: 1 }, signal?: AbortSignal) {
  const response = await fetch(`${sink.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test": "yes" },
    body: JSON.stringify(body),
    signal,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe("startSink", () => {
  it("listens on 127.0.0.1 and records method, path, query, headers, body, JSON and time", async () => {
    expect(sink.url).toBe(`http://127.0.0.1:${sink.port}`);
    const before = Date.now();
    const response = await post("/hook/abc?wait=true&thread=9", { text: "héllo 👋" });
    expect(response).toMatchObject({ status: 200, text: '{"ok":true}' });
    expect(response.headers.get("content-type")).toContain("application/json");
    const [request] = sink.requests;
    expect(request).toMatchObject({
      method: "POST",
      path: "/hook/abc",
      query: { wait: "true", thread: "9" },
      body: '{"text":"héllo 👋"}',
      json: { text: "héllo 👋" },
      status: 200,
      rateLimited: false,
    });
    expect(request?.headers["x-test"]).toBe("yes");
    expect(request?.rawBody.equals(Buffer.from('{"text":"héllo 👋"}'))).toBe(true);
    expect(request?.receivedAt).toBeGreaterThanOrEqual(before);
  });

  it("keeps a non-JSON body raw with json undefined", async () => {
    await fetch(`${sink.url}/form`, { method: "POST", body: "a=1&b=2" });
    expect(sink.requests[0]).toMatchObject({ body: "a=1&b=2", json: undefined });
  });

  it("answers an arbitrary status, body and headers", async () => {
    sink.behave({ status: 418, body: "teapot", headers: { "x-custom": "1" } });
    const response = await post("/x");
    expect(response.status).toBe(418);
    expect(response.text).toBe("teapot");
    expect(response.headers.get("x-custom")).toBe("1");
    expect(response.headers.get("content-type")).toContain("text/plain");
  });

  it("fails with 5xx a given number of times, then falls back", async () => {
    sink.behave({ status: 503, times: 2 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post("/x")).status);
    expect(statuses).toEqual([503, 503, 200, 200]);
    expect((await post("/x")).text).toBe('{"ok":true}');
  });

  it("fails always when no count is given", async () => {
    sink.behave({ status: 500 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await post("/x")).status);
    expect(statuses).toEqual([500, 500, 500]);
  });

  it("plays a sequence in order; a step without times stays", async () => {
    sink.behave([{ status: 500, times: 1 }, { status: 429, times: 2 }, { status: 201 }]);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await post("/x")).status);
    expect(statuses).toEqual([500, 429, 429, 201, 201]);
  });

  it("answers 429 with Retry-After seconds and a JSON retry_after", async () => {
    sink.behave({
      status: 429,
      retryAfter: 2,
      json: { message: "You are being rate limited.", retry_after: 1.5 },
      times: 1,
    });
    const limited = await post("/x");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(JSON.parse(limited.text)).toEqual({ message: "You are being rate limited.", retry_after: 1.5 });
    expect((await post("/x")).status).toBe(200);
  });

  it("scripts one path without touching others, and path scripts fall back to the global one", async () => {
    sink.behave({ status: 502 });
    sink.behave({ status: 404, times: 1 }, { path: "/a" });
    expect((await post("/a")).status).toBe(404);
    expect((await post("/a")).status).toBe(502);
    expect((await post("/b")).status).toBe(502);
  });

  it("is slow when told to: delays the answer", async () => {
    sink.behave({ delayMs: 300, json: { late: true } });
    const start = performance.now();
    const response = await post("/slow");
    expect(since(start)).toBeGreaterThanOrEqual(295);
    expect(JSON.parse(response.text)).toEqual({ late: true });
  });

  it("hangs until the client gives up, recording the request unanswered", async () => {
    sink.behave({ hang: true });
    await expect(post("/h", {}, AbortSignal.timeout(200))).rejects.toThrow();
    expect(sink.requests).toHaveLength(1);
    expect(sink.requests[0]?.status).toBeUndefined();
  });

  it("drops the connection without answering", async () => {
    sink.behave({ drop: true });
    await expect(post("/d")).rejects.toThrow(/fetch failed/);
    expect(sink.requests).toHaveLength(1);
  });

  it("close ends hanging and delayed requests, so nothing leaks", async () => {
    sink.behave({ hang: true });
    const hanging = post("/h").catch((error: unknown) => error);
    sink.behave({ delayMs: 60_000 }, { path: "/slow" });
    const delayed = post("/slow").catch((error: unknown) => error);
    await sink.waitForRequests(2);
    const start = performance.now();
    await sink.close();
    expect(await hanging).toBeInstanceOf(Error);
    expect(await delayed).toBeInstanceOf(Error);
    expect(since(start)).toBeLessThan(1000);
    await sink.close(); // twice is fine
  });

  it("waitForRequests resolves once enough requests arrived and rejects with what it saw", async () => {
    const waiting = sink.waitForRequests(2, 2000);
    await post("/one");
    await post("/two");
    expect((await waiting).map((r) => r.path)).toEqual(["/one", "/two"]);
    await expect(sink.waitForRequests(3, 100)).rejects.toThrow(
      "sink: expected 3 request(s) within 100 ms, got 2 (POST /one, POST /two)",
    );
  });

  it("reset forgets requests and scripts and restores the start options", async () => {
    await sink.close();
    sink = await startSink({ behaviour: { status: 202 } });
    sink.behave({ status: 500 });
    sink.behave({ status: 404 }, { path: "/p" });
    await post("/p");
    sink.reset();
    expect(sink.requests).toEqual([]);
    expect((await post("/p")).status).toBe(202);
    expect((await post("/q")).status).toBe(202);
  });

  it("returns a copy of the requests", async () => {
    await post("/x");
    const copy = sink.requests;
    copy.pop();
    expect(sink.requests).toHaveLength(1);
  });
});

describe("startSink rate limit", () => {
  it("answers 429 with Retry-After and retry_after when a burst exceeds the declared rate", async () => {
    await sink.close();
    sink = await startSink({ rateLimit: { max: 2, perMs: 1000 } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post("/c1")).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect(sink.requests.map((r) => r.rateLimited)).toEqual([false, false, true, true]);
    const limited = await post("/c1");
    expect(Number(limited.headers.get("retry-after"))).toBe(1);
    const body = JSON.parse(limited.text) as { retry_after: number };
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(1);
    // Other paths (channels) have their own window.
    expect((await post("/c2")).status).toBe(200);
  });

  it("lets requests through again once the window has passed", async () => {
    sink.setRateLimit({ max: 1, perMs: 200 });
    expect((await post("/c")).status).toBe(200);
    expect((await post("/c")).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await post("/c")).status).toBe(200);
    sink.setRateLimit(undefined);
    expect((await post("/c")).status).toBe(200);
  });

  it("groups by a custom key", async () => {
    sink.setRateLimit({ max: 1, perMs: 1000, key: () => "all" });
    expect((await post("/a")).status).toBe(200);
    expect((await post("/b")).status).toBe(429);
  });
});
