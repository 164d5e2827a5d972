import { createChannelError } from "@errand/channel-sdk";
import { createHttpClient } from "@errand/channel-sdk/helpers";
import { captureLogger, fixtures, type Sink, startSink } from "@errand/channel-sdk/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { until } from "../../../test/support/until.js";
import { createDeliveryLane } from "../src/delivery-lane.js";
import { createDigestQueue } from "../src/digest-queue.js";
import { coalesceProgress, type RoomEvent } from "../src/room-event.js";

let sink: Sink;
beforeEach(async () => void (sink = await startSink()));
afterEach(() => sink.close());

const http = createHttpClient({ retry: false });
const start = (runId: string): RoomEvent => ({ kind: "start", runId, ticket: fixtures.tickets.basic, engine: "e" });
const progress = (runId: string, message: string): RoomEvent => ({
  kind: "progress",
  runId,
  ticket: fixtures.tickets.basic,
  message,
});
const complete = (runId: string): RoomEvent => ({
  kind: "complete",
  runId,
  ticket: fixtures.tickets.basic,
  result: fixtures.results.success,
});
const label = (e: RoomEvent) => `${e.kind} ${e.runId}${e.kind === "progress" ? ` ${e.message}` : ""}`;

/** A queue whose messages are JSON: `{ one }` for an event alone, `{ digest: [...] }` for a digest of at most `most`. */
function queue(options: { intervalMs?: number; threshold?: number; most?: number; flushMs?: number } = {}) {
  const logger = captureLogger();
  const room = createDigestQueue<Record<string, unknown>>({
    lane: createDeliveryLane({ intervalMs: options.intervalMs ?? 150, budgetMs: 1000, retry: { baseDelayMs: 1 } }),
    key: "room",
    name: "test: room",
    request: "the test post",
    threshold: options.threshold ?? 3,
    render: (event) => ({ one: label(event) }),
    renderDigest: (events) => {
      const taken = Math.min(events.length, options.most ?? 100);
      return { message: { digest: events.slice(0, taken).map(label) }, taken };
    },
    post: async (message, { signal, timeoutMs }) =>
      String((await http.postJson<{ id?: string }>(`${sink.url}/post`, message, { signal, timeoutMs })).status),
    logger,
    flushMs: options.flushMs,
    retryDelayMs: { first: 50, max: 200 },
  });
  return { room, logger };
}
const bodies = () => sink.requests.map((r) => r.json);

/** A queue whose room has delivered one message (so it is known to be up: a busy room then takes calls at once), with the sink's record cleared. */
async function warm(options: Parameters<typeof queue>[0] = {}) {
  const made = queue(options);
  await made.room.submit(start("warm-up"));
  sink.reset();
  return made;
}

describe("createDigestQueue", () => {
  it("sends alone while the room keeps up, answers at once while it is busy, and sends a digest of what waits beyond the threshold", async () => {
    const { room } = await warm({ threshold: 3 });
    const first = room.submit(start("r0"));
    const answers = await Promise.all(["r1", "r2", "r3", "r4", "r5"].map((id) => room.submit(start(id))));
    expect(answers).toEqual([{}, {}, {}, {}, {}]);
    expect(room.waiting).toBe(5);
    expect(await first).toEqual({ deliveryId: "200" });
    await until(() => sink.requests.length === 2, "the digest");
    expect(bodies()).toEqual([
      { one: "start r0" },
      { digest: ["start r1", "start r2", "start r3", "start r4", "start r5"] },
    ]);
    await room.close();
  });

  it("sends what waits alone, in order, while no more than the threshold waits", async () => {
    const { room } = await warm({ threshold: 3 });
    await Promise.all(["r0", "r1", "r2", "r3"].map((id) => room.submit(start(id))));
    await until(() => sink.requests.length === 4, "4 messages");
    expect(bodies()).toEqual(["r0", "r1", "r2", "r3"].map((id) => ({ one: `start ${id}` })));
    await room.close();
  });

  it("shows in a digest only the latest progress of each run, and none for a run it reports finished", async () => {
    const { room } = await warm({ threshold: 2 });
    const first = room.submit(start("r0"));
    for (const event of [
      progress("r0", "1"),
      progress("r1", "1"),
      progress("r0", "2"),
      progress("r1", "2"),
      complete("r1"),
    ])
      await room.submit(event);
    await first;
    await until(() => sink.requests.length === 2, "the digest");
    expect(bodies()[1]).toEqual({ digest: ["progress r0 2", "complete r1"] });
    expect(room.waiting).toBe(0);
    await room.close();
  });

  it("splits a backlog larger than one digest into several, losing none", async () => {
    const { room } = await warm({ threshold: 1, most: 4, intervalMs: 50 });
    await Promise.all(Array.from({ length: 11 }, (_, i) => room.submit(start(`r${i}`))));
    await until(() => sink.requests.length === 4, "4 messages");
    expect(bodies()).toEqual([
      { one: "start r0" },
      { digest: ["start r1", "start r2", "start r3", "start r4"] },
      { digest: ["start r5", "start r6", "start r7", "start r8"] },
      { digest: ["start r9", "start r10"] },
    ]);
    await room.close();
  });

  it("keeps the events of a failed send and tries again; drops and logs those the target refuses for good", async () => {
    const { room, logger } = await warm({ threshold: 1 });
    sink.behave([{ times: 1 }, { status: 503, times: 6 }, { status: 400, times: 1 }, {}]);
    await Promise.all([room.submit(start("r0")), room.submit(start("r1")), room.submit(start("r2"))]);
    await until(() => sink.requests.filter((r) => r.status === 400).length === 1, "the refusal");
    await room.submit(start("r3"));
    await until(() => sink.requests.at(-1)?.status === 200 && sink.requests.length > 8, "the last message");
    // The digest of r1 and r2 met 503s until the lane gave up (5 attempts), one more when tried again later, then a 400.
    expect(sink.requests.map((r) => r.status)).toEqual([200, 503, 503, 503, 503, 503, 503, 400, 200]);
    expect(bodies().at(-1)).toEqual({ one: "start r3" });
    expect(
      logger.records.some(
        (r) =>
          r.msg === "a message to the room failed; its notifications wait and are tried again"
          && r.code === "ERR_UNAVAILABLE",
      ),
    ).toBe(true);
    const dropped = logger.records.find((r) => r.msg.startsWith("notifications dropped"));
    expect(dropped).toMatchObject({
      level: "error",
      room: "test: room",
      code: "ERR_INVALID_ARGUMENT",
      starts: 2,
      runIds: ["start r1", "start r2"],
    });
    await room.close();
  });

  it("a call that comes while the sender finishes after a refused message is sent, not refused as if the room failed", async () => {
    // Posts the test settles by hand, so the call lands exactly while the refused message's answer is handled.
    const answers: Array<{ resolve: (id: string) => void; reject: (error: unknown) => void }> = [];
    const room = createDigestQueue<string>({
      lane: createDeliveryLane({ intervalMs: 1, budgetMs: 1000, retry: { baseDelayMs: 1 } }),
      key: "room",
      name: "test: room",
      request: "the test post",
      threshold: 5,
      render: label,
      renderDigest: (events) => ({ message: events.map(label).join(", "), taken: events.length }),
      post: () => new Promise<string>((resolve, reject) => answers.push({ resolve, reject })),
      logger: captureLogger(),
    });
    const posted = async (count: number) => until(() => answers.length === count, `${count} posts`);
    const warmUp = room.submit(start("warm-up"));
    await posted(1);
    answers[0]!.resolve("ok-0");
    await warmUp; // the room is known to be up
    const refused = createChannelError("ERR_INVALID_ARGUMENT", "the platform refused the message");
    const first = room.submit(start("r0"));
    await posted(2);
    expect(await room.submit(start("r1"))).toEqual({}); // the room is busy: r1 waits
    answers[1]!.reject(refused); // r0's own message refused: the room's last send failed
    await expect(first).rejects.toBe(refused);
    await posted(3); // the sender's message of r1 is out
    const third = room.submit(start("r2")); // waits for that send, which tells whether the room fails
    answers[2]!.reject(refused); // refused too: dropped, nothing waits, the sender ends
    await posted(4);
    answers[3]!.resolve("ok-3");
    expect(await third).toEqual({ deliveryId: "ok-3" });
    await room.close();
  });

  it("while the platform fails, a call fails with the room's error instead of joining the queue; what waits is sent once it is back", async () => {
    const { room } = await warm({ threshold: 5 });
    sink.behave({ status: 503 });
    const first = room.submit(start("r0"));
    // The room was up when this call came: it joins the queue behind the first.
    expect(await room.submit(start("r1"))).toEqual({});
    expect((await first.catch((error) => error)).code).toBe("ERR_UNAVAILABLE");
    const refused = await room.submit(start("r2")).catch((error) => error);
    expect(refused).toMatchObject({ code: "ERR_UNAVAILABLE" });
    expect(refused.message).toMatch(
      /^test: room is failing, so the notification was not queued; its last message failed: .*503/,
    );
    sink.behave({});
    await until(() => sink.requests.some((r) => r.status === 200), "the platform back");
    expect(bodies().at(-1)).toEqual({ one: "start r1" });
    // The sink logs r1's answer before the sender has read it: r3 then joins the queue behind r1 instead of going
    // alone. Either way it is taken, not refused, and reaches the platform.
    expect([{}, { deliveryId: "200" }]).toContainEqual(await room.submit(start("r3")));
    await until(() => bodies().some((body) => (body as { one?: string } | undefined)?.one === "start r3"), "r3 sent");
    await room.close();
  });

  it("reads a call's logger only to log its retry: a call that sends at once, or joins the queue, never asks for it", async () => {
    const { room } = await warm({ intervalMs: 300 });
    const callLogger = captureLogger();
    let reads = 0;
    const call = {
      get logger() {
        reads++;
        return callLogger;
      },
    };
    await room.submit(start("alone"), call);
    const queued = room.submit(start("queued"), call);
    await room.submit(start("queued-too"), call);
    await queued;
    await until(() => sink.requests.length === 3, "the three messages");
    expect(reads).toBe(0);
    // The room is idle again once its pace allows the next message: the next call sends alone, and retries.
    await new Promise((resolve) => setTimeout(resolve, 400));
    sink.behave([{ status: 503, times: 1 }, {}]);
    await room.submit(start("retried"), call);
    expect(sink.requests.map((r) => r.json)).toEqual([
      { one: "start alone" },
      { one: "start queued" },
      { one: "start queued-too" },
      { one: "start retried" },
      { one: "start retried" },
    ]);
    expect(reads).toBe(1);
    expect(callLogger.records.filter((r) => r.msg === "retrying the test post")).toHaveLength(1);
  });

  it("on close, sends what waits as one digest when the room's pace allows, and logs what it cannot send", async () => {
    const flushed = await warm({ threshold: 100, intervalMs: 1 });
    sink.behave([{ delayMs: 100, times: 1 }, {}]);
    const first = flushed.room.submit(start("r0"));
    await Promise.all([flushed.room.submit(start("r1")), flushed.room.submit(complete("r0"))]);
    await first;
    await flushed.room.close();
    expect(bodies()).toContainEqual({ digest: ["start r1", "complete r0"] });

    const paced = queue({ threshold: 100, intervalMs: 5000, flushMs: 100 });
    await paced.room.submit(start("a"));
    await paced.room.submit(start("b"));
    await expect(paced.room.submit(start("c"))).resolves.toEqual({});
    await paced.room.close();
    expect(paced.logger.records.find((r) => r.msg.startsWith("notifications lost"))).toMatchObject({
      level: "error",
      starts: 2,
      runIds: ["start b", "start c"],
    });
    await expect(paced.room.submit(start("d"))).rejects.toMatchObject({ code: "ERR_CANCELLED" });
  });
});

describe("coalesceProgress", () => {
  it("keeps the latest progress of each run, none for a run that completes, and every start and completion", () => {
    const events = [
      progress("a", "1"),
      start("b"),
      progress("a", "2"),
      progress("", "x"),
      progress("", "y"),
      progress("b", "3"),
      progress("c", "4"),
      complete("a"),
    ];
    expect(coalesceProgress(events).map(({ event, index }) => `${index}: ${label(event)}`)).toEqual([
      "1: start b",
      "3: progress  x",
      "4: progress  y",
      "5: progress b 3",
      "6: progress c 4",
      "7: complete a",
    ]);
  });
});
