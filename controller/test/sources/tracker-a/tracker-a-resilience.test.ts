import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createTrackerAAdapter,
  type TrackerAAdapterOptions,
} from "../../../src/vendors/tracker-a/tracker-a-adapter.js";
import { TrackerAError } from "../../../src/vendors/tracker-a/tracker-a-error.js";
import { taskRun, testContext, trackerAConfig } from "./adapter-kit.js";
import { type FakeLinear, startFakeLinear } from "./fake-linear.js";

let fake: FakeLinear;
beforeEach(async () => {
  fake = await startFakeLinear();
  fake.ws.addIssue({ labels: ["agent"] });
});
afterEach(async () => {
  await fake.close();
});

async function prepared(options: TrackerAAdapterOptions = {}) {
  const adapter = createTrackerAAdapter(trackerAConfig(fake), fake.token, options);
  const ctx = testContext();
  await adapter.prepare(ctx);
  return { adapter, ctx };
}

const failureOf = (error: unknown) => (error instanceof TrackerAError ? error.failure : error);

describe("tracker_a and the API's rate limits", () => {
  it("a RATELIMITED answer with a short advertised reset is waited out in line and the request sent again", async () => {
    const { adapter, ctx } = await prepared();
    fake.exhaust("complexity", 300);
    const candidates = await adapter.poll(ctx);
    expect(candidates).toHaveLength(1);
    expect(fake.requests.filter((r) => r.operation === "issues").map((r) => r.status)).toEqual([400, 200]);
  });

  it("a long reset fails the poll with when requests resume, and no request at all is sent until then", async () => {
    const { adapter, ctx } = await prepared();
    fake.exhaust("requests", 10 * 60_000);
    const error = await adapter.poll(ctx).catch((e: unknown) => e);
    expect(failureOf(error)).toBe("rate_limited");
    const resetAt = (error as TrackerAError).resetAt ?? 0;
    expect(resetAt).toBeGreaterThan(Date.now() + 9 * 60_000);
    expect((error as TrackerAError).message).toContain(new Date(resetAt).toISOString());
    const sent = fake.requests.length;
    expect(failureOf(await adapter.poll(ctx).catch((e: unknown) => e))).toBe("rate_limited");
    const [candidate] = await adapter.poll(ctx).catch(() => []);
    expect(candidate).toBeUndefined();
    const ticket = ticketOf(fake.ws.issue("ENG-1").id);
    expect(failureOf(await adapter.pickedUp(ticket, taskRun(ticket), ctx).catch((e: unknown) => e))).toBe(
      "rate_limited",
    );
    expect(fake.requests.length).toBe(sent);
  });

  it("a bare 429 is honoured through its Retry-After header", async () => {
    const { adapter, ctx } = await prepared();
    fake.fail(1, "429", 1);
    expect(await adapter.poll(ctx)).toHaveLength(1);
    expect(fake.requests.map((r) => r.operation).slice(-2)).toEqual(["(failed: 429)", "issues"]);
  });

  it("RATELIMITED twice in a row gives up rather than waiting again", async () => {
    const { adapter, ctx } = await prepared();
    fake.fail(2, "429", 0);
    expect(failureOf(await adapter.poll(ctx).catch((e: unknown) => e))).toBe("rate_limited");
    expect(await adapter.poll(ctx)).toHaveLength(1);
  });
});

describe("tracker_a when the API fails", () => {
  it("500s fail polls as transient errors, then the poll recovers on its own", async () => {
    const { adapter, ctx } = await prepared();
    fake.fail(2, "500");
    for (let k = 0; k < 2; k++) {
      const error = await adapter.poll(ctx).catch((e: unknown) => e);
      expect(failureOf(error)).toBe("unavailable");
      expect((error as TrackerAError).transient).toBe(true);
    }
    expect(await adapter.poll(ctx)).toHaveLength(1);
  });

  it("a proxy's HTML 502 and a dropped connection are transient too", async () => {
    const { adapter, ctx } = await prepared();
    fake.fail(1, "502");
    expect(failureOf(await adapter.poll(ctx).catch((e: unknown) => e))).toBe("unavailable");
    fake.fail(1, "reset");
    expect(failureOf(await adapter.poll(ctx).catch((e: unknown) => e))).toBe("unavailable");
    expect(await adapter.poll(ctx)).toHaveLength(1);
  });

  it("a server that hangs fails the request at the request timeout, not never", async () => {
    const { adapter, ctx } = await prepared({ requestTimeoutMs: 300 });
    fake.fail(1, "hang");
    const error = await adapter.poll(ctx).catch((e: unknown) => e);
    expect(failureOf(error)).toBe("unavailable");
    expect((error as TrackerAError).message).toMatch(/did not answer within 0\.3 s/);
    expect(await adapter.poll(ctx)).toHaveLength(1);
  });

  it("an API down at start does not stop the start: the configuration is checked at the first poll that reaches it", async () => {
    const adapter = createTrackerAAdapter(trackerAConfig(fake, { state_filter: "todo" }), fake.token);
    const ctx = testContext();
    fake.fail(1, "500");
    await adapter.prepare(ctx);
    expect(ctx.lines.join("\n")).toMatch(/tracker_a cannot be reached at start/);
    const error = await adapter.poll(ctx).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/ticketing\.config\.state_filter: "todo" is not a state of team ENG/);
  });

  it("stops waiting when the controller stops (the context's signal)", async () => {
    const stop = new AbortController();
    const adapter = createTrackerAAdapter(trackerAConfig(fake), fake.token);
    const ctx = testContext(stop.signal);
    await adapter.prepare(ctx);
    fake.fail(1, "hang");
    const polling = adapter.poll(ctx).catch((e: unknown) => e);
    setTimeout(() => stop.abort(new Error("controller shutting down")), 50);
    expect(String(await polling)).toMatch(/controller shutting down/);
  });
});

function ticketOf(id: string) {
  return {
    id,
    title: "",
    description: "",
    ticketType: "issue",
    repoUrl: "",
    externalUrl: "https://linear.example/acme/issue/ENG-1",
    labels: [],
    source: "tracker_a",
  };
}
