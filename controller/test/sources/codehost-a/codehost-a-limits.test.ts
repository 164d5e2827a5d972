import { describe, expect, it } from "vitest";
import { CodehostAError } from "../../../src/vendors/codehost-a/codehost-a-error.js";
import { eventually } from "../../controller/harness.js";
import { adapterFor, fake, QUICK } from "./setup.js";

const LIST = /^GET \/(repos\/acme\/shop|repositories\/4242)\/issues\?/;

async function prepared(keys: Record<string, unknown> = {}, options = QUICK) {
  const f = await fake();
  const t = adapterFor(f, keys, options);
  await t.adapter.prepare(t.ctx);
  return { f, ...t };
}

describe("code host A adapter: conditional requests", () => {
  it("an idle poll is answered 304 page by page and costs no quota; a change is seen on the next poll", async () => {
    const { f, adapter, ctx, logger } = await prepared();
    f.maxPerPage = 2;
    for (let i = 0; i < 3; i++) f.repo.add({ labels: ["agent"] });
    const first = await adapter.poll(ctx);
    const spent = f.quota.remaining;
    const before = f.requests.length;
    expect(await adapter.poll(ctx)).toEqual(first);
    expect(f.requests.slice(before).map((r) => [r.status, r.conditional])).toEqual([
      [304, true],
      [304, true],
    ]);
    expect(f.quota.remaining).toBe(spent);
    // Octokit reports a 304 as a failed request: that is no news for the controller's log.
    expect(logger.records.filter((r) => r.level !== "debug")).toEqual([]);
    const issue = f.repo.issues.get(1);
    if (issue !== undefined) f.repo.addLabel(issue, "wontfix");
    const third = await adapter.poll(ctx);
    expect(third.find((c) => c.ticket.id === "1")?.skip).toContain("excluded");
    expect(f.requests.slice(before + 2).map((r) => r.status)).toEqual([304, 200]);
  });
});

describe("code host A adapter: failures and retries", () => {
  it("retries 500s inside the request and recovers", async () => {
    const { f, adapter, ctx } = await prepared();
    f.repo.add({ labels: ["agent"] });
    f.inject({ kind: "error", status: 500 }, { times: 2, match: LIST });
    expect(await adapter.poll(ctx)).toHaveLength(1);
    expect(f.requests.filter((r) => LIST.test(`${r.method} ${r.path}`)).map((r) => r.status)).toEqual([500, 500, 200]);
  });

  it("fails the poll once the retries are spent, and the next poll succeeds", async () => {
    const { f, adapter, ctx } = await prepared();
    f.repo.add({ labels: ["agent"] });
    f.inject({ kind: "error", status: 502 }, { times: 4, match: LIST });
    const error = await adapter.poll(ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CodehostAError);
    expect(error).toMatchObject({
      code: "ERR_TICKET_SOURCE",
      status: 502,
      message: "code host A did not answer the request to list the open issues (502: Bad Gateway)",
    });
    expect(await adapter.poll(ctx)).toHaveLength(1);
  });

  it("counts a request that hangs as a failed attempt and retries it", async () => {
    const { f, adapter, ctx } = await prepared({}, { ...QUICK, requestTimeoutMs: 200 });
    f.repo.add({ labels: ["agent"] });
    f.inject({ kind: "hang" }, { match: LIST });
    expect(await adapter.poll(ctx)).toHaveLength(1);
    f.inject({ kind: "hang" }, { times: 4, match: LIST });
    const error = await adapter.poll(ctx).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ERR_TICKET_SOURCE", status: 500 });
    expect((error as Error).message).toContain("did not answer the request to list the open issues");
  });

  it("stops at once, without retrying, when the controller aborts", async () => {
    const { f, adapter, ctx, stop } = await prepared({}, { ...QUICK, requestTimeoutMs: 60_000 });
    f.inject({ kind: "hang" }, { times: 10, match: LIST });
    const poll = adapter.poll(ctx).catch((e: unknown) => e);
    await eventually("the list request to hang", () => (f.arrived.some((r) => LIST.test(r)) ? true : undefined));
    stop.abort(new Error("controller shutting down"));
    const error = await poll;
    expect(error).not.toBeInstanceOf(CodehostAError);
    expect((error as Error).name).toBe("AbortError");
    expect(f.arrived.filter((r) => LIST.test(r))).toHaveLength(1);
  });
});

describe("code host A adapter: rate limits", () => {
  it("waits out a short secondary limit (403 or 429 with Retry-After) inside the request", async () => {
    const { f, adapter, ctx, logger } = await prepared();
    f.repo.add({ labels: ["agent"] });
    f.inject({ kind: "secondary", status: 403, retryAfter: 2 }, { match: LIST });
    expect(await adapter.poll(ctx)).toHaveLength(1);
    f.inject({ kind: "secondary", status: 429, retryAfter: 1 }, { match: LIST });
    expect(await adapter.poll(ctx)).toHaveLength(1);
    const warned = logger.records.filter((r) => r.message === "code host A secondary rate limit reached");
    expect(warned.map((r) => [r.fields?.retry_after_s, r.fields?.waiting])).toEqual([
      [2, true],
      [1, true],
    ]);
  });

  it("a stopping controller does not sit out a rate-limit wait", async () => {
    const { f, adapter, ctx, stop, logger } = await prepared({}, { ...QUICK, secondMs: 1000 });
    f.inject({ kind: "secondary", status: 403, retryAfter: 60 }, { match: LIST });
    const poll = adapter.poll(ctx).catch((e: unknown) => e);
    await eventually("the wait to begin", () =>
      logger.records.some((r) => r.fields?.waiting === true) ? true : undefined,
    );
    stop.abort(new Error("controller shutting down"));
    expect(((await poll) as Error).name).toBe("AbortError");
    expect(f.arrived.filter((r) => LIST.test(r))).toHaveLength(1);
  });

  it("fails on a long secondary limit and sends nothing until Retry-After has passed", async () => {
    const { f, adapter, ctx } = await prepared({}, { ...QUICK, maxRateLimitWaitSeconds: 5 });
    f.repo.add({ labels: ["agent"] });
    // 300 "seconds" of 1 ms each.
    f.inject({ kind: "secondary", status: 403, retryAfter: 300 }, { match: LIST });
    const error = await adapter.poll(ctx).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ERR_TICKET_SOURCE", status: 403 });
    expect((error as Error).message).toContain(
      "rate-limited the request to list the open issues (403 You have exceeded a secondary rate limit",
    );
    const sent = f.requests.length;
    const refused = await adapter.poll(ctx).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "ERR_TICKET_SOURCE" });
    expect((refused as Error).message).toMatch(
      /^code host A asked us to retry after 300 s \(secondary rate limit\); no requests until /,
    );
    expect(f.requests).toHaveLength(sent);
    expect(await eventually("the limit to pass", () => adapter.poll(ctx).catch(() => undefined))).toHaveLength(1);
  });

  it("on a spent quota (403, x-ratelimit-remaining 0) retries once, then sends nothing until the reset", async () => {
    const { f, adapter, ctx, logger } = await prepared();
    f.repo.add({ labels: ["agent"] });
    f.exhaustQuota(2);
    const error = await adapter.poll(ctx).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ERR_TICKET_SOURCE", status: 403 });
    expect((error as Error).message).toContain("(403 API rate limit exceeded for user ID 1.)");
    expect(f.requests.slice(-2).map((r) => r.status)).toEqual([403, 403]);
    expect(
      logger.records.filter((r) => r.message === "code host A rate limit reached").map((r) => r.fields?.waiting),
    ).toEqual([true, false]);
    const sent = f.requests.length;
    await expect(adapter.poll(ctx)).rejects.toThrow(/^code host A spent its rate-limit quota; no requests until /);
    expect(f.requests).toHaveLength(sent);
    expect(await eventually("the quota to reset", () => adapter.poll(ctx).catch(() => undefined), 5000)).toHaveLength(
      1,
    );
  });

  it("waits for the reset inside the request when it is near", async () => {
    const { f, adapter, ctx } = await prepared({}, { ...QUICK, secondMs: 1000 });
    f.repo.add({ labels: ["agent"] });
    f.exhaustQuota(1);
    expect(await adapter.poll(ctx)).toHaveLength(1);
    expect(f.requests.slice(-2).map((r) => r.status)).toEqual([403, 200]);
  });

  it("stops before the quota runs out: an answer with no quota left closes the gate until the reset", async () => {
    const { f, adapter, ctx } = await prepared();
    f.repo.add({ labels: ["agent"] });
    Object.assign(f.quota, { remaining: 1, reset: Math.floor(Date.now() / 1000) + 2 });
    expect(await adapter.poll(ctx)).toHaveLength(1);
    const sent = f.requests.length;
    await expect(adapter.poll(ctx)).rejects.toThrow(/spent its rate-limit quota/);
    expect(f.requests).toHaveLength(sent);
  });
});
