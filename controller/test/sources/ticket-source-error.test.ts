import { silentLogger } from "@errand/channel-sdk/host";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import type { PollAdapter } from "../../src/sources/polling/poll-adapter.js";
import { createPollingSource } from "../../src/sources/polling/polling-source.js";
import { TicketSourceError } from "../../src/sources/ticket-source-error.js";
import { toCodehostAError } from "../../src/vendors/codehost-a/codehost-a-error.js";
import { toTrackerAError } from "../../src/vendors/tracker-a/tracker-a-error.js";
import { toTrackerBError } from "../../src/vendors/tracker-b/tracker-b-api-error.js";

const signal = new AbortController().signal;
const octokit = (status: number) =>
  Object.assign(new Error("Bad"), { status, response: { headers: {}, data: { message: "Bad" } } });
const axios = (status: number) => ({
  isAxiosError: true,
  message: "Bad",
  response: { status, data: { message: "Bad" }, headers: {} },
});

describe("every ticket source's API failures", () => {
  it("carry the one code ERR_TICKET_SOURCE and the same failure kinds", () => {
    for (const [status, failure] of [
      [401, "auth"],
      [404, "not_found"],
      [503, "unavailable"],
      [429, "rate_limited"],
    ] as const) {
      const host = toCodehostAError(octokit(status), "list the issues", "acme/shop", signal);
      const tracker = toTrackerBError(axios(status), "GET /api/v3/stories/1");
      for (const error of [host, tracker]) {
        expect(error).toBeInstanceOf(TicketSourceError);
        expect(error).toMatchObject({ code: "ERR_TICKET_SOURCE", failure, status });
      }
    }
    const down = toTrackerAError(new TypeError("fetch failed"), "poll");
    expect(down).toMatchObject({ code: "ERR_TICKET_SOURCE", failure: "unavailable", transient: true });
  });
});

describe("a polling source at start", () => {
  const start = async (error: unknown) => {
    const adapter: PollAdapter = {
      backend: "tracker_b",
      prepare: async () => {
        throw error;
      },
      poll: async () => [],
      pickedUp: async () => {},
      finished: async () => {},
    };
    const source = createPollingSource({ adapter, intervalMs: 60_000, logger: silentLogger, registry: new Registry() });
    try {
      await source.start({ accept: async () => [], acceptDelivery: async () => ({ delivery: "new", outcomes: [] }) });
      return { started: true, health: source.health() };
    } catch (thrown) {
      return { started: false, thrown };
    } finally {
      await source.stop();
    }
  };

  it("refuses to start when the API refused the token: waiting will not fix it", async () => {
    const refused = toTrackerBError(axios(401), "GET /api/v3/member");
    expect(await start(refused)).toMatchObject({ started: false, thrown: refused });
  });

  it("starts and keeps trying when the API is down", async () => {
    const outcome = await start(toTrackerBError(axios(503), "GET /api/v3/member"));
    expect(outcome).toMatchObject({ started: true, health: { ready: true } });
    expect(outcome.health?.detail).toMatch(/^failing \(1 in a row\): tracker B answered 503/);
  });
});
