import { CALL_TARGET_MS } from "@errand/channel-sdk/protocol";
import type { SinkRequest } from "@errand/channel-sdk/testing";
import { fixtures } from "@errand/channel-sdk/testing";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { type CheckDefinition, type CheckEnvironment, CheckFailure, CheckSkipped } from "../check.js";
import { type DeclaredRate, SINK_PLACEHOLDER } from "../config.js";
import { delay, expectOk, type OpenChannel, openChannel, tail, timedCall } from "../harness.js";
import { NOTIFY_MESSAGE } from "./notify.js";
import { concurrencyFor, describeViolation, judgeArrivals, LATE_MS } from "./rate.js";

function needsConfig(env: CheckEnvironment): void {
  if (!env.conformance)
    throw new CheckSkipped(
      "no conformance config (errand-conformance.json or --config) points the channel at the sink",
    );
  const { config, secrets, env: vars } = env.conformance;
  if (!JSON.stringify([config, secrets, vars]).includes(SINK_PLACEHOLDER)) {
    throw new CheckSkipped(
      `the conformance config does not point the channel at the sink (no ${SINK_PLACEHOLDER} in it)`,
    );
  }
}

/** The body as sent and as form-decoded, for text searches. */
function bodyTexts(request: SinkRequest): string[] {
  let decoded = request.body;
  try {
    decoded = decodeURIComponent(request.body.replace(/\+/g, " "));
  } catch {
    // not form-encoded
  }
  return [request.body, decoded];
}

const contains = (request: SinkRequest, text: string) => bodyTexts(request).some((b) => b.includes(text));

async function deliveredBy(open: OpenChannel, before: number): Promise<SinkRequest[]> {
  await delay(20);
  return open.sink!.requests.slice(before).filter((r) => r.status !== undefined && r.status < 300);
}

/** Each notification really reaches the target. */
export const deliveryCheck: CheckDefinition = {
  id: "target.delivery",
  title: "each notification reaches the target",
  async run(env, defer) {
    needsConfig(env);
    const open = await openChannel(env, defer);
    const ticket = fixtures.tickets.basic;
    const calls = [
      {
        what: "Notify",
        call: { kind: "notify", message: NOTIFY_MESSAGE, ticket } as const,
        texts: [ticket.title, NOTIFY_MESSAGE],
      },
      { what: "NotifyStart", call: { kind: "notifyStart", ticket } as const, texts: [ticket.title] },
      {
        what: "NotifyComplete (success)",
        call: { kind: "notifyComplete", ticket, result: fixtures.results.success } as const,
        texts: [ticket.title],
      },
      {
        what: "NotifyComplete (failure)",
        call: { kind: "notifyComplete", ticket, result: fixtures.results.failure } as const,
        texts: [ticket.title],
      },
    ];
    for (const { what, call, texts } of calls) {
      const before = open.sink!.requests.length;
      expectOk(open, what, await timedCall(open, call), "see the plugin's stderr for the error");
      const delivered = await deliveredBy(open, before);
      const missing = texts.filter((text) => !delivered.some((r) => contains(r, text)));
      if (delivered.length === 0 || missing.length > 0) {
        throw new CheckFailure({
          expected: `${what} sends at least one request to the target that contains ${texts.map((t) => JSON.stringify(t)).join(" and ")}`,
          actual:
            delivered.length === 0
              ? `${what} answered OK but the sink got no successful request (it got ${open.sink!.requests.length - before} request(s))`
              : `the ${delivered.length} request(s) lack ${missing.map((t) => JSON.stringify(t)).join(", ")}; first body: ${delivered[0]!.body.slice(0, 200)}`,
          fix: "deliver every notification to the configured target before answering OK, with the ticket title (and Notify's message) in it",
        });
      }
    }
  },
};

/** A 429 with Retry-After is retried after the stated delay. */
export const retryAfterCheck: CheckDefinition = {
  id: "target.retry-after",
  title: "a 429 with Retry-After is retried after the stated delay",
  async run(env, defer) {
    needsConfig(env);
    const open = await openChannel(env, defer);
    const answer = env.conformance!.sink;
    open.sink!.behave([
      {
        status: 429,
        retryAfter: 1,
        json: { ok: false, error: "ratelimited", message: "rate limited", retry_after: 1 },
        times: 1,
      },
      { status: answer.status, json: answer.json, headers: answer.headers },
    ]);
    const r = await timedCall(open, { kind: "notify", message: NOTIFY_MESSAGE, ticket: fixtures.tickets.basic });
    const requests = open.sink!.requests;
    const fix =
      "on 429 wait for Retry-After (or a JSON retry_after) and retry within the call's budget (the SDK's HTTP client and retry() do this)";
    if (!r.ok || requests.length < 2) {
      throw new CheckFailure({
        expected: "after one 429 with Retry-After: 1, the plugin retries about 1 s later and the call succeeds",
        actual: `the call answered ${r.text} after ${r.ms} ms; the sink got ${requests.length} request(s)${tail(open.session)}`,
        fix,
      });
    }
    const gap = requests[1]!.receivedAt - requests[0]!.receivedAt;
    if (gap < 950 || gap > 2500) {
      throw new CheckFailure({
        expected: "the retry arrives 1 s (950-2500 ms) after the 429",
        actual: `the retry arrived ${gap} ms after the 429`,
        fix,
      });
    }
  },
};

/** Persistent 5xx fails within the target instead of hanging. */
export const persistent5xxCheck: CheckDefinition = {
  id: "target.persistent-5xx",
  title: "persistent 5xx fails within 5 s with an error status",
  async run(env, defer) {
    needsConfig(env);
    const open = await openChannel(env, defer);
    open.sink!.behave({ status: 503, json: { ok: false, error: "service_unavailable" } });
    const r = await timedCall(open, { kind: "notify", message: NOTIFY_MESSAGE, ticket: fixtures.tickets.basic });
    await delay(400);
    const late = open.sink!.requests.filter((q) => q.receivedAt > r.endedAt + 100);
    // The host's own deadline fires at CALL_TARGET_MS; an error well before it came from the plugin.
    const gaveUp = !r.ok && r.code !== GrpcStatus.CANCELLED && r.ms < CALL_TARGET_MS - 250;
    if (!gaveUp || late.length > 0) {
      throw new CheckFailure({
        expected: `with a target answering 503 every time, the plugin gives up itself with an error status (UNAVAILABLE) within ${CALL_TARGET_MS} ms and stops sending`,
        actual: `${r.ok ? "the call answered OK" : `the call ended ${r.text}`} after ${r.ms} ms; ${late.length} request(s) arrived after the call ended`,
        fix: "retry 5xx only within a time budget shorter than the deadline (the SDK's retry() defaults to 4 s) and stop when the call's signal aborts",
      });
    }
  },
};

const HANG_DEADLINE_MS = 1500;

/** A hanging target is abandoned when the deadline passes. */
export const hangCheck: CheckDefinition = {
  id: "target.hang",
  title: "a hanging target is abandoned when the deadline passes",
  async run(env, defer) {
    needsConfig(env);
    const open = await openChannel(env, defer);
    open.sink!.behave({ hang: true });
    const started = Date.now();
    const r = await timedCall(
      open,
      { kind: "notify", message: NOTIFY_MESSAGE, ticket: fixtures.tickets.basic },
      HANG_DEADLINE_MS,
    );
    const deadline = started + HANG_DEADLINE_MS;
    await delay(Math.max(0, deadline + 500 - Date.now()));
    const awaiting = open.relay!.awaiting();
    const late = open.sink!.requests.filter((q) => q.receivedAt > deadline + 250);
    if (r.ok || awaiting.length > 0 || late.length > 0) {
      throw new CheckFailure({
        expected: `a call with a ${HANG_DEADLINE_MS} ms deadline to a target that never answers fails, and the plugin drops the request within 500 ms of the deadline`,
        actual: [
          r.ok ? "the call answered OK" : `the call ended ${r.text} after ${r.ms} ms`,
          awaiting.length > 0
            ? `${awaiting.length} connection(s) still waiting for the hung answer 500 ms after the deadline`
            : "",
          late.length > 0 ? `${late.length} request(s) sent after the deadline` : "",
        ]
          .filter(Boolean)
          .join("; "),
        fix: "pass the handler's ctx.signal to every HTTP request and sleep so they are aborted at the deadline",
      });
    }
  },
};

/** The first target (sink path) whose arrivals break the declared rate, in words. */
function rateBroken(requests: readonly SinkRequest[], burstStart: number, rate: DeclaredRate): string | undefined {
  const byPath = new Map<string, number[]>();
  for (const r of requests) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r.receivedAt]);
  for (const [path, times] of byPath) {
    const violation = judgeArrivals(times, burstStart, rate);
    if (violation) return describeViolation(violation, path);
  }
  return undefined;
}

/**
 * Waits until `count` requests were answered with success, or until `untilMs`
 * (epoch ms; at least 20 ms): a channel may answer a call once its message is
 * queued, and send it when the declared rate allows.
 */
async function arrivals(open: OpenChannel, count: number, untilMs: number): Promise<void> {
  const delivered = () => open.sink!.requests.filter((q) => q.status !== undefined && q.status < 300).length;
  do await delay(20);
  while (delivered() < count && Date.now() < untilMs);
}

/** A burst does not exceed the channel's declared rate. */
export const rateCheck: CheckDefinition = {
  id: "target.rate",
  title: "a burst does not exceed the declared rate",
  async run(env, defer) {
    needsConfig(env);
    const rate = env.conformance!.rate;
    if (!rate) throw new CheckSkipped('the conformance config declares no "rate"');
    const open = await openChannel(env, defer);
    open.sink!.reset();
    // The sink answers every request: a live 429 on a request stamped late by
    // a busy machine would make a correct channel retry and miss its
    // deadlines. The rate is judged afterwards, on the arrival times.
    open.sink!.setRateLimit(undefined);
    const count = concurrencyFor(rate, 10);
    const ticket = fixtures.tickets.basic;
    // Arrivals are judged from when the calls were made (see judgeArrivals).
    const burstStart = Date.now();
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        timedCall(open, { kind: "notify", message: `${NOTIFY_MESSAGE} #${i}`, ticket }),
      ),
    );
    await arrivals(open, count, burstStart + (Math.ceil(count / rate.perKey) - 1) * rate.intervalMs + LATE_MS);
    const failed = results.filter((q) => !q.ok || q.ms > CALL_TARGET_MS);
    const ok = open.sink!.requests.filter((q) => q.status !== undefined && q.status < 300);
    const delivered = ok.length;
    const spanMs = delivered > 1 ? Math.max(...ok.map((q) => q.receivedAt)) - burstStart : 0;
    const broken = rateBroken(open.sink!.requests, burstStart, rate);
    if (broken || failed.length > 0 || delivered < count) {
      throw new CheckFailure({
        expected: `a burst of ${count} calls is sent at most ${rate.perKey} per ${rate.intervalMs} ms to one target (judged on the sink's arrival times, see docs/conformance.md) and every call succeeds within ${CALL_TARGET_MS} ms`,
        actual: [
          broken ?? "the arrivals keep the declared rate",
          `${failed.length} call(s) failed or were late${failed[0] ? ` (first: ${failed[0].text} after ${failed[0].ms} ms)` : ""}`,
          `${delivered} of ${count} delivered within ${spanMs} ms of the burst`,
        ].join("; "),
        fix: "queue messages with the SDK's createThrottle({ intervalMs }) keyed by target before sending",
      });
    }
  },
};
