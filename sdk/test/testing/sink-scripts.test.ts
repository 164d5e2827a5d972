import { afterEach, describe, expect, it } from "vitest";
import { type Sink, type SinkBehaviour, startSink } from "../../src/testing/index.js";

let sink: Sink | undefined;
afterEach(async () => {
  await sink?.close();
  sink = undefined;
});

describe("sink scripts are checked when given", () => {
  it.each<[string, SinkBehaviour, RegExp]>([
    ["a status above 999", { status: 1000 }, /status 1000 is not an HTTP status code/],
    ["a status below 100", { status: 42 }, /status 42 is not an HTTP status code/],
    ["a fractional status", { status: 200.5 }, /status 200\.5 is not an HTTP status code/],
    ["a header name Node refuses", { headers: { "bad header": "x" } }, /header "bad header" cannot be sent/],
    ["a header value with a line break", { headers: { "x-a": "1\r\nx-b: 2" } }, /header "x-a" cannot be sent/],
    ["a retryAfter that is negative", { status: 429, retryAfter: -1 }, /retryAfter -1 is neither/],
    ["a delay longer than a timer can wait", { delayMs: 2 ** 31 }, /delayMs 2147483648 is not a delay/],
    ["a fractional times", { status: 500, times: 1.5 }, /times 1\.5 is not a whole number/],
    ["json that cannot be serialized", { json: { n: 1n } }, /json cannot be serialized/],
  ])("%s is an ERR_INVALID_ARGUMENT from behave(), and the sink keeps serving", async (_name, behaviour, message) => {
    sink = await startSink();
    const thrown = (() => {
      try {
        sink.behave(behaviour);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toMatchObject({
      code: "ERR_INVALID_ARGUMENT",
      message: expect.stringMatching(/^sink\.behave: /),
      hint: expect.any(String),
    });
    expect((thrown as Error).message).toMatch(message);
    // The rejected script changed nothing: the default answer still comes.
    const response = await fetch(`${sink.url}/hook`, { method: "POST", body: "{}" });
    expect(response.status).toBe(200);
  });

  it("names the step of a multi-step script and the path it was for", () => {
    return startSink().then((s) => {
      sink = s;
      expect(() => s.behave([{ status: 503, times: 1 }, { status: 1000 }], { path: "/hook" })).toThrow(
        /^sink\.behave \(path \/hook\): step 2: status 1000/,
      );
    });
  });

  it("startSink refuses a bad initial script or rate limit before listening", async () => {
    await expect(startSink({ behaviour: { status: 1000 } })).rejects.toMatchObject({
      code: "ERR_INVALID_ARGUMENT",
      message: expect.stringContaining("startSink: behaviour: status 1000"),
    });
    await expect(startSink({ rateLimit: { max: 2, perMs: 0 } })).rejects.toMatchObject({
      code: "ERR_INVALID_ARGUMENT",
      message: expect.stringContaining("rateLimit perMs 0"),
    });
    sink = await startSink();
    expect(() => sink?.setRateLimit({ max: -1, perMs: 1000 })).toThrow(/sink\.setRateLimit: rateLimit max -1/);
  });

  it("accepts every status Node can send, 100 to 999", async () => {
    sink = await startSink();
    sink.behave({ status: 599, body: "odd but valid" });
    const response = await fetch(`${sink.url}/hook`);
    expect(response.status).toBe(599);
  });
});
