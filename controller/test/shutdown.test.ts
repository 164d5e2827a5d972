import { describe, expect, it } from "vitest";
import { postJson, send } from "./helpers/http.js";
import { startServer } from "./helpers/server.js";

describe("graceful shutdown", () => {
  it("finishes requests in flight, then refuses new connections", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const t = await startServer({}, { onTickets: () => gate });
    const inFlight = [1, 2, 3].map((id) =>
      postJson(t.base, "/webhooks/tracker", { actions: [{ id, entity_type: "story", action: "update", name: "n" }] }),
    );
    await new Promise((r) => setTimeout(r, 100));
    const stopped = t.server.stop();
    await new Promise((r) => setTimeout(r, 50));
    await expect(send(t.base, "/healthz", { method: "GET" })).rejects.toThrow();
    release();
    const results = await Promise.all(inFlight);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(results.every((r) => r.headers.connection === "close")).toBe(true);
    await stopped;
    expect(t.tickets).toHaveLength(3);
  });

  it("closes what is still open when shutdown_ms runs out", async () => {
    const t = await startServer(
      { timeouts: { shutdown_ms: 200, handler_ms: 10_000 } },
      { onTickets: () => new Promise(() => {}) },
    );
    const hanging = postJson(t.base, "/webhooks/tracker", {
      actions: [{ id: 1, entity_type: "story", action: "update", name: "n" }],
    }).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await t.server.stop();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await hanging).toBeInstanceOf(Error);
  });
});
