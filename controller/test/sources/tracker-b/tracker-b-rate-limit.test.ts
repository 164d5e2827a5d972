import { afterEach, describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../../src/vendors/tracker-b/retry-after.js";
import { nextToken } from "../../../src/vendors/tracker-b/tracker-b-api.js";
import { TrackerBApiError } from "../../../src/vendors/tracker-b/tracker-b-api-error.js";
import { type FakeShortcut, startFakeShortcut } from "./fake-shortcut.js";
import { pollContext, preparedAdapter, storyTicket, taskRun } from "./helpers.js";

let fake: FakeShortcut;
afterEach(async () => {
  await fake?.close();
});

const searches = (f: FakeShortcut) =>
  f.requests.filter((r) => r.path === "/api/v3/search/stories").map((r) => r.status);
const TOO_MANY = { status: 429, body: { message: "Too Many Requests" } };

describe("tracker B: rate limits, failures and recovery", () => {
  it("waits out 429s as Retry-After asks, then carries on", async () => {
    fake = await startFakeShortcut();
    fake.addStory({});
    const adapter = await preparedAdapter(fake);
    fake.inject({
      ...TOO_MANY,
      headers: { "retry-after": "0" },
      times: 2,
      match: (_m, path) => path.startsWith("/api/v3/search"),
    });
    const ctx = pollContext();
    expect(await adapter.poll(ctx)).toHaveLength(1);
    expect(searches(fake)).toEqual([429, 429, 200]);
    expect(ctx.lines.filter((l) => l.includes("tracker B rate limit hit"))).toHaveLength(2);
  });

  it("without Retry-After waits its own doubling default", async () => {
    fake = await startFakeShortcut();
    const story = fake.addStory({});
    const adapter = await preparedAdapter(fake, {}, { rateLimit: { defaultWaitMs: 5 } });
    fake.inject({ ...TOO_MANY, times: 2, match: (m) => m === "POST" });
    await adapter.pickedUp(storyTicket(story.id), taskRun(story.id), pollContext());
    const posts = fake.requests.filter((r) => r.method === "POST").map((r) => r.status);
    expect(posts).toEqual([429, 429, 201]);
    expect(fake.events.filter((e) => e.kind === "comment")).toHaveLength(1);
  });

  it("gives up at once when Retry-After asks for longer than it may wait, and after too many 429s", async () => {
    fake = await startFakeShortcut();
    const adapter = await preparedAdapter(fake, {}, { rateLimit: { maxRetries: 2 } });
    fake.inject({ ...TOO_MANY, headers: { "retry-after": "3600" }, times: 1 });
    const long = await adapter.poll(pollContext()).catch((e: unknown) => e);
    expect(long).toBeInstanceOf(TrackerBApiError);
    expect((long as TrackerBApiError).message).toBe(
      "tracker B answered 429 to GET /api/v3/search/stories (page 1): Too Many Requests; still rate limited after 0 wait(s) (Retry-After: 3600)",
    );
    expect((long as TrackerBApiError).hint).toContain("raise ticketing.poll_interval");
    fake.inject({ ...TOO_MANY, headers: { "retry-after": "0" }, times: 5 });
    await expect(adapter.poll(pollContext())).rejects.toThrow("still rate limited after 2 wait(s)");
    fake.heal();
    await expect(adapter.poll(pollContext())).resolves.toEqual([]);
  });

  it("fails a poll on 500s with the vendor's message, and recovers when the API does", async () => {
    fake = await startFakeShortcut();
    fake.addStory({});
    const adapter = await preparedAdapter(fake);
    fake.inject({ status: 503, body: { message: "Service Unavailable", tag: "maintenance" }, times: 2 });
    for (let i = 0; i < 2; i++) {
      await expect(adapter.poll(pollContext())).rejects.toMatchObject({
        status: 503,
        message: "tracker B answered 503 to GET /api/v3/search/stories (page 1): Service Unavailable / maintenance",
      });
    }
    expect(await adapter.poll(pollContext())).toHaveLength(1);
    expect(searches(fake)).toEqual([503, 503, 200]);
  });

  it("a hung API fails the call after the request timeout; a stop aborts it at once", async () => {
    fake = await startFakeShortcut();
    const adapter = await preparedAdapter(fake, {}, { timeoutMs: 200 });
    fake.inject({ hang: true, times: 1 });
    await expect(adapter.poll(pollContext())).rejects.toThrow(
      /could not be reached for GET \/api\/v3\/search\/stories \(page 1\) \(no answer in time\)/,
    );
    fake.inject({ hang: true, times: 1 });
    const stop = new AbortController();
    const polling = adapter.poll(pollContext(stop.signal));
    stop.abort(new Error("controller shutting down"));
    await expect(polling).rejects.toThrow("controller shutting down");
  });

  it("reads Retry-After as seconds or an HTTP date, and the token out of a next path", () => {
    const now = Date.parse("2024-05-01T12:00:00Z");
    expect(parseRetryAfter("7", now)).toBe(7000);
    expect(parseRetryAfter("Wed, 01 May 2024 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Wed, 01 May 2024 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(nextToken("/api/v3/search/stories?query=state%3A%22x%22&next=a8%2Bb%3D")).toBe("a8+b=");
    expect(nextToken("a8acc6f6")).toBe("a8acc6f6");
    expect(nextToken(null)).toBeUndefined();
  });
});
