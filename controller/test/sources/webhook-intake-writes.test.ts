import { join } from "node:path";
import { silentLogger } from "@errand/channel-sdk/host";
import BetterSqlite3 from "better-sqlite3";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/temp-dir.js";
import { parseWebhookConfig } from "../../src/config/parse-webhook-config.js";
import { createBatchedSink } from "../../src/intake/batched-sink.js";
import { createWebhookSource } from "../../src/sources/webhook-source.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../src/store/store.js";
import { postJson } from "../helpers/http.js";

const SECRET = "intake-writes-secret";
// The Store methods the intake writes with. On SQLite each call is exactly one transaction
// (sqlite/intake-ops.ts: an IMMEDIATE transaction each, or one autocommit statement).
const WRITES = ["claimDelivery", "commitDelivery", "releaseDelivery", "acceptTickets", "acceptDeliveries"] as const;

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** The controller's durable intake (webhook source, batched sink, SQLite store), with the store's write transactions counted. */
async function startIntake(path: string) {
  const real = await createSqliteStore({ path, checkpointIntervalMs: 0 });
  const writes: string[] = [];
  const store: Store = { ...real };
  for (const name of WRITES) {
    const method = real[name] as (...args: unknown[]) => Promise<unknown>;
    (store as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      writes.push(name);
      return method(...args);
    };
  }
  const { config } = parseWebhookConfig(
    { webhook: { host: "127.0.0.1", port: 0, generic: { auth_mode: "bearer", secret: SECRET } } },
    { env: {}, baseDir: "." },
  );
  const sink = createBatchedSink({ store, engine: "default", onCommitted: () => {} });
  const source = createWebhookSource({ config, store, logger: silentLogger, registry: new Registry() });
  await source.start(sink);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await source.stop();
    await real.close();
  };
  stops.push(stop);
  const base = `http://127.0.0.1:${source.server?.address?.port}`;
  const headers = (deliveryId: string) => ({ authorization: `Bearer ${SECRET}`, "idempotency-key": deliveryId });
  const post = (id: string, deliveryId: string) =>
    postJson(base, "/webhooks/generic", { id, title: `T ${id}` }, headers(deliveryId));
  const postText = (body: string, deliveryId: string) => postJson(base, "/webhooks/generic", body, headers(deliveryId));
  return { store: real, writes, post, postText, stop };
}

describe("the durable intake's store writes", () => {
  it("costs a request its share of one store transaction, which checks its delivery id and stores its tickets", async () => {
    const intake = await startIntake(join(tempDir("errand-intake-"), "errand.db"));
    for (let i = 0; i < 5; i++) {
      const res = await intake.post(`t${i}`, `d${i}`);
      expect(res.json).toEqual({ status: "accepted", tickets: [`t${i}`] });
    }
    // One request at a time: each is alone in its batch, and nothing claims its id before.
    expect(intake.writes).toEqual(Array(5).fill("acceptDeliveries"));
    intake.writes.length = 0;
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => intake.post(`b${i}`, `db${i}`)));
    expect(burst.map((r) => r.json.status)).toEqual(Array(20).fill("accepted"));
    // Requests that arrive in one event-loop turn share the transaction.
    expect(intake.writes.length).toBeLessThanOrEqual(20);
    expect(new Set(intake.writes)).toEqual(new Set(["acceptDeliveries"]));
  });

  it("answers the second of two concurrent deliveries of one id as a duplicate, and starts one run", async () => {
    const intake = await startIntake(join(tempDir("errand-intake-"), "errand.db"));
    const answers = await Promise.all([
      intake.post("c1", "twice"),
      intake.post("c1", "twice"),
      intake.post("c1", "twice"),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.json.status).sort()).toEqual(["accepted", "duplicate", "duplicate"]);
    expect(await intake.store.listRuns({ ticket: { source: "generic", id: "c1" } })).toHaveLength(1);
  });

  it("stores the event as the body's own text, not serialised again, and reads it back as the parsed body", async () => {
    const path = join(tempDir("errand-intake-"), "errand.db");
    const intake = await startIntake(path);
    const body = '{ "id" : "text-1",\n  "title": "Keep \\u00fc and spacing", "big": 12345678901234567890 }';
    expect((await intake.postText(body, "d-text")).json).toEqual({ status: "accepted", tickets: ["text-1"] });
    const db = new BetterSqlite3(path, { readonly: true });
    const { payload } = db.prepare("SELECT payload FROM tickets WHERE source = 'generic' AND id = 'text-1'").get() as {
      payload: string;
    };
    db.close();
    expect(payload).toContain(`"rawEvent":${body}`);
    expect((await intake.store.getTicket({ source: "generic", id: "text-1" }))?.rawEvent).toEqual(JSON.parse(body));
  });

  it("answers a redelivery after a restart as a duplicate, without writing its tickets again", async () => {
    const path = join(tempDir("errand-intake-"), "errand.db");
    const first = await startIntake(path);
    expect((await first.post("r1", "redelivered")).json.status).toBe("accepted");
    await first.stop();
    const second = await startIntake(path);
    expect((await second.post("r1", "redelivered")).json).toEqual({ status: "duplicate" });
    expect(second.writes).toEqual(["acceptDeliveries"]);
    expect(await second.store.listRuns({ ticket: { source: "generic", id: "r1" } })).toHaveLength(1);
  });

  it("answers 503 when the batch fails, and lets the sender's retry through", async () => {
    const path = join(tempDir("errand-intake-"), "errand.db");
    const intake = await startIntake(path);
    // A write the batch makes after marking the id and storing the ticket fails: nothing of it may stay.
    const admin = new BetterSqlite3(path);
    admin.exec("CREATE TRIGGER broken BEFORE INSERT ON transitions BEGIN SELECT RAISE(ABORT, 'disk trouble'); END");
    const failed = await intake.post("f1", "retried");
    expect(failed.status).toBe(503);
    expect(await intake.store.getTicket({ source: "generic", id: "f1" })).toBeUndefined();
    expect(intake.writes).toEqual(["acceptDeliveries"]);
    expect(await intake.store.claimDelivery("generic:retried", 60_000)).toBe("new");
    await intake.store.releaseDelivery("generic:retried");
    admin.exec("DROP TRIGGER broken");
    admin.close();
    expect((await intake.post("f1", "retried")).json).toEqual({ status: "accepted", tickets: ["f1"] });
    expect((await intake.post("f1", "retried")).json).toEqual({ status: "duplicate" });
  });
});
