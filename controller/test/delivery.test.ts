import { createLogger } from "@errand/channel-sdk/host";
import { describe, expect, it } from "vitest";
import { postJson } from "./helpers/http.js";
import { startServer } from "./helpers/server.js";
import { hostASignature } from "./helpers/sign.js";

const story = (id: number) => ({ actions: [{ id, entity_type: "story", action: "update", name: `S${id}` }] });

function deferred() {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((a, b) => {
    resolve = a;
    reject = b;
  });
  return { promise, resolve, reject };
}

describe("hand-off: nothing lost, nothing twice", () => {
  it("answers 200 only after the ticket handler's promise resolved", async () => {
    const gate = deferred();
    const t = await startServer({}, { onTickets: () => gate.promise });
    let answered = false;
    const pending = postJson(t.base, "/webhooks/tracker", story(1)).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(answered).toBe(false);
    gate.resolve();
    expect((await pending).json).toEqual({ status: "accepted", tickets: ["1"] });
  });

  it("answers 503 with Retry-After when the handler fails, and lets the retry through", async () => {
    let fail = true;
    const t = await startServer(
      {},
      {
        onTickets: () => {
          if (fail) throw new Error("store down: password=hunter2");
        },
      },
    );
    const first = await postJson(t.base, "/webhooks/tracker", story(1), { "idempotency-key": "d-1" });
    expect(first.status).toBe(503);
    expect(first.headers["retry-after"]).toBe("5");
    expect(first.json.error.code).toBe("ERR_UNAVAILABLE");
    expect(first.text).not.toContain("hunter2");
    fail = false;
    const retry = await postJson(t.base, "/webhooks/tracker", story(1), { "idempotency-key": "d-1" });
    expect(retry.json).toEqual({ status: "accepted", tickets: ["1"] });
    const again = await postJson(t.base, "/webhooks/tracker", story(1), { "idempotency-key": "d-1" });
    expect(again.json).toEqual({ status: "duplicate" });
    expect(t.tickets).toHaveLength(1);
  });

  it("answers 503 when the handler outlives handler_ms, and keeps the claim until it settles", async () => {
    const gate = deferred();
    let signal: AbortSignal | undefined;
    const t = await startServer(
      { timeouts: { handler_ms: 200 } },
      {
        onTickets: (_t, ctx) => {
          signal = ctx.signal;
          return gate.promise;
        },
      },
    );
    const slow = await postJson(t.base, "/webhooks/tracker", story(1), { "idempotency-key": "d-2" });
    expect(slow.status).toBe(503);
    expect(signal?.aborted).toBe(true);
    const meanwhile = await postJson(t.base, "/webhooks/tracker", story(1), { "idempotency-key": "d-2" });
    expect(meanwhile.status).toBe(503);
    expect(meanwhile.json.error.code).toBe("ERR_DELIVERY_IN_PROGRESS");
    gate.resolve();
    await new Promise((r) => setTimeout(r, 20));
    const after = await postJson(t.base, "/webhooks/tracker", story(1), { "idempotency-key": "d-2" });
    expect(after.json).toEqual({ status: "duplicate" });
  });

  it("hands concurrent deliveries with one id on once", async () => {
    const gate = deferred();
    const t = await startServer({}, { onTickets: () => gate.promise });
    const all = Array.from({ length: 5 }, () =>
      postJson(t.base, "/webhooks/tracker", story(3), { "idempotency-key": "same" }),
    );
    await new Promise((r) => setTimeout(r, 100));
    gate.resolve();
    const statuses = (await Promise.all(all)).map((r) => r.json.status ?? r.json.error.code).sort();
    expect(statuses).toEqual([
      "ERR_DELIVERY_IN_PROGRESS",
      "ERR_DELIVERY_IN_PROGRESS",
      "ERR_DELIVERY_IN_PROGRESS",
      "ERR_DELIVERY_IN_PROGRESS",
      "accepted",
    ]);
    expect(t.tickets).toHaveLength(1);
  });

  it("deduplicates per source: the same id at two sources is two deliveries", async () => {
    const secret = "s3cret-value";
    const t = await startServer({ secrets: { codehost_a: secret } });
    const issue = JSON.stringify({
      action: "opened",
      issue: { number: 5, title: "t", body: "b", html_url: "u", labels: [] },
      repository: { html_url: "r" },
    });
    const a = await postJson(t.base, "/webhooks/github", issue, {
      "x-github-event": "issues",
      "x-hub-signature-256": hostASignature(secret, issue),
      "idempotency-key": "x",
    });
    const b = await postJson(t.base, "/webhooks/tracker", story(5), { "idempotency-key": "x" });
    expect([a.json.status, b.json.status]).toEqual(["accepted", "accepted"]);
  });

  it("logs source, delivery id and outcome as JSON, never a secret", async () => {
    const lines: string[] = [];
    const secret = "very-secret-signing-key";
    const logger = createLogger({ level: "debug", write: (l) => lines.push(l), redact: () => [secret] });
    const t = await startServer({ secrets: { codehost_a: secret } }, { logger });
    const body = JSON.stringify({ action: "opened", issue: { number: 9, title: secret } });
    await postJson(t.base, "/webhooks/codehost-a", body, {
      "x-hosta-event": "issues",
      "x-hub-signature-256": hostASignature(secret, body),
      "x-hosta-delivery": "del-9",
    });
    await postJson(t.base, "/webhooks/codehost-a", body, {
      "x-hosta-event": "issues",
      "x-hub-signature-256": "sha256=00",
      "x-hosta-delivery": "del-10",
    });
    const records = lines.map((l) => JSON.parse(l));
    const requests = records.filter((r) => r["@message"] === "webhook request");
    expect(requests.map((r) => [r.source, r.delivery_id, r.outcome, r.status])).toEqual([
      ["codehost_a", "del-9", "accepted", 200],
      ["codehost_a", "del-10", "unauthenticated", 401],
    ]);
    expect(lines.join("")).not.toContain(secret);
    expect(lines.join("")).not.toContain(hostASignature(secret, body).slice(7));
  });

  // A store that is down must never turn into a 500 or a lost ticket: 503 makes the sender retry.
  it.each([
    ["claim", "throws"],
    ["claim", "rejects"],
    ["commit", "throws"],
    ["commit", "rejects"],
  ] as const)(
    "answers 503 ERR_UNAVAILABLE when the dedupe store's %s %s, and logs it without the secret",
    async (op, how) => {
      const lines: string[] = [];
      const logger = createLogger({ write: (line) => lines.push(line), secrets: ["hunter2"] });
      const fail = () => {
        const error = new Error("dedupe backend unreachable: password=hunter2");
        if (how === "throws") throw error;
        return Promise.reject(error);
      };
      const store = { claim: () => "new" as const, commit: () => {}, release: () => {}, [op]: fail };
      const t = await startServer({}, { dedupeStore: store, logger });
      const r = await postJson(t.base, "/webhooks/tracker", story(1), { "idempotency-key": `store-${op}-${how}` });
      expect(r.status).toBe(503);
      expect(r.headers["retry-after"]).toBe("5");
      expect(r.json.error.code).toBe("ERR_UNAVAILABLE");
      expect(r.text).not.toContain("hunter2");
      const logged = lines.join("");
      expect(logged).toContain("dedupe store failed");
      expect(logged).not.toContain("hunter2");
      // A failed claim hands nothing on; a failed commit comes after the handler ran (the retry may deliver again).
      expect(t.tickets).toHaveLength(op === "claim" ? 0 : 1);
    },
  );
});
