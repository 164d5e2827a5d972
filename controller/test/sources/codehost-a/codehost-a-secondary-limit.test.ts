import type { Ticket } from "@errand/channel-sdk";
import { describe, expect, it } from "vitest";
import { CodehostAError } from "../../../src/vendors/codehost-a/codehost-a-error.js";
import { eventually } from "../../controller/harness.js";
import type { SeenRequest } from "./fake-codehost-a.js";
import { adapterFor, fake, QUICK, runOf } from "./setup.js";

const LIST = /^GET \/(repos\/acme\/shop|repositories\/4242)\/issues\?/;
const LABELS = /^POST \/repos\/acme\/shop\/issues\/\d+\/labels/;
const line = (r: SeenRequest) => `${r.method} ${r.path.split("?")[0]} ${r.status}`;

/** A prepared adapter, an issue it can pick up, and that issue as a ticket. */
async function withIssue(secondMs: number, maxRateLimitWaitSeconds?: number) {
  const f = await fake();
  const issue = f.repo.add({ labels: ["agent"] });
  const t = adapterFor(
    f,
    {},
    { ...QUICK, secondMs, ...(maxRateLimitWaitSeconds === undefined ? {} : { maxRateLimitWaitSeconds }) },
  );
  const [candidate] = await t.adapter.poll(t.ctx);
  return { f, issue, ticket: candidate?.ticket as Ticket, ...t };
}

// What the code host saw is the proof: the fake's own log of requests, with the time each arrived.
describe("code host A adapter: a secondary limit holds every request to the host", () => {
  it("sends nothing until Retry-After has passed, then the held write first, then the rejected poll's retry", async () => {
    // Retry-After 5 "seconds" of 500 ms: a 2.5 s window, short enough for the request to wait it out and long enough
    // for the second poll to start inside it on a loaded machine.
    const secondMs = 500;
    const { f, issue, ticket, adapter, ctx } = await withIssue(secondMs);
    f.inject({ kind: "secondary", status: 403, retryAfter: 5 }, { match: LIST });
    const poll = adapter.poll(ctx);
    const limited = await eventually("the 403", () => f.requests.find((r) => r.status === 403));
    // The fake logs the 403 as it answers; the client holds requests once it has read it (on a loaded machine, later).
    await eventually("the client to read the 403", () => ((adapter.limitedUntil?.() ?? 0) > 0 ? true : undefined));
    const write = adapter.pickedUp(ticket, runOf(issue.number), ctx);
    const refused = await adapter.poll(ctx).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CodehostAError);
    expect((refused as Error).message).toMatch(
      /^code host A asked us to retry after 5 s \(secondary rate limit\); no requests until /,
    );
    await Promise.all([poll, write]);

    const after = f.requests.slice(f.requests.indexOf(limited) + 1);
    expect(after.map(line)).toEqual([
      `POST /repos/acme/shop/issues/${issue.number}/labels 200`,
      "GET /repos/acme/shop/issues 200",
    ]);
    // The window opens when the client reads the 403, a little after it arrived: nothing may arrive before its end.
    for (const request of after) expect(request.at - limited.at, line(request)).toBeGreaterThanOrEqual(5 * secondMs);
    expect((after[1] as SeenRequest).at).toBeGreaterThanOrEqual((after[0] as SeenRequest).at);
    expect(f.repo.changesOf(issue.number)).toEqual(["+agent-in-progress"]);
  });

  it("holds a rejected write through a limit longer than any wait inside a request, and sends it once the limit has passed", async () => {
    // 300 "seconds" of 2 ms, past the 5 s a poll would wait: the write is still not lost.
    const { f, issue, ticket, adapter, ctx } = await withIssue(2, 5);
    f.inject({ kind: "secondary", status: 403, retryAfter: 300 }, { match: LABELS });
    await adapter.pickedUp(ticket, runOf(issue.number), ctx);
    const writes = f.requests.filter((r) => LABELS.test(`${r.method} ${r.path}`));
    expect(writes.map((r) => r.status)).toEqual([403, 200]);
    expect((writes[1] as SeenRequest).at - (writes[0] as SeenRequest).at).toBeGreaterThanOrEqual(600);
    expect(f.repo.changesOf(issue.number)).toEqual(["+agent-in-progress"]);
  });

  it("holds a write through a spent quota until its reset, instead of refusing it", async () => {
    const { f, issue, ticket, adapter, ctx } = await withIssue(1);
    f.exhaustQuota(1);
    await expect(adapter.poll(ctx)).rejects.toThrow(/rate limit exceeded/);
    const reset = f.quota.reset * 1000;
    await adapter.pickedUp(ticket, runOf(issue.number), ctx);
    const writes = f.requests.filter((r) => LABELS.test(`${r.method} ${r.path}`));
    expect(writes.map((r) => r.status)).toEqual([200]);
    expect((writes[0] as SeenRequest).at).toBeGreaterThanOrEqual(reset);
  });

  it("a stopping controller does not sit out a held write", async () => {
    const { f, issue, ticket, adapter, ctx, stop } = await withIssue(1000);
    f.inject({ kind: "secondary", status: 403, retryAfter: 60 }, { match: LIST });
    const poll = adapter.poll(ctx).catch((e: unknown) => e);
    await eventually("the 403", () => f.requests.find((r) => r.status === 403));
    const write = adapter.pickedUp(ticket, runOf(issue.number), ctx).catch((e: unknown) => e);
    stop.abort(new Error("controller shutting down"));
    expect(((await write) as Error).name).toBe("AbortError");
    expect(((await poll) as Error).name).toBe("AbortError");
    expect(f.arrived.filter((r) => LABELS.test(r))).toEqual([]);
  });
});
