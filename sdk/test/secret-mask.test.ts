import { afterEach, describe, expect, it } from "vitest";
import { UnavailableError } from "../src/errors.js";
import { toStatus } from "../src/grpc/status-mapping.js";
import { createHttpClient } from "../src/helpers/http.js";
import { guardLogger } from "../src/host/host-logger.js";
import { createLogger } from "../src/logger.js";
import { createSecretMask, redactSecrets } from "../src/secret-mask.js";
import { createMaskingLogger, maskError } from "../src/secret-mask-errors.js";
import { captureLogger } from "../src/testing/capture-logger.js";
import { type Sink, startSink } from "../src/testing/sink.js";

// Every place that masks secrets must mask the same forms the same way: the
// logger, the host's logger guard, errors sent across gRPC, the HTTP client's
// messages. Each case was masked by some of them and leaked by others while
// two `secretForms` existed (the logger's: raw and JSON-escaped, in the order
// given; the HTTP client's: raw and percent-encoded, longest first).
const cases = [
  {
    what: "a secret that contains another, the shorter listed first",
    secrets: ["abcd1234", "abcd1234-and-more"],
    text: "token abcd1234-and-more refused",
    masked: "token [redacted] refused",
  },
  {
    what: "a secret percent-encoded in a URL",
    secrets: ["tok en/ä+1"],
    text: `GET https://h.example/x?t=${encodeURIComponent("tok en/ä+1")} failed`,
    masked: "GET https://h.example/x?t=[redacted] failed",
  },
  {
    what: "a secret JSON-escaped in a quoted body",
    secrets: ['pa"ss\\word'],
    text: `body {"token":${JSON.stringify('pa"ss\\word')}}`,
    masked: 'body {"token":"[redacted]"}',
  },
  {
    what: "a secret ending in a backslash, JSON-escaped",
    secrets: ["s3cret-value\\"],
    text: `body {"token":${JSON.stringify("s3cret-value\\")}}`,
    masked: 'body {"token":"[redacted]"}',
  },
];

let sink: Sink | undefined;
afterEach(async () => {
  await sink?.close();
  sink = undefined;
});

const maskers: Record<string, (text: string, secrets: string[]) => string | Promise<string>> = {
  redactSecrets: (text, secrets) => redactSecrets(text, secrets),
  "createSecretMask (the controller's agent run logs)": (text, secrets) => createSecretMask(secrets)(text),
  createLogger: (text, secrets) => {
    const lines: string[] = [];
    createLogger({ write: (line) => lines.push(line), secrets }).warn(text);
    return (JSON.parse(lines[0]!) as { "@message": string })["@message"];
  },
  captureLogger: (text, secrets) => {
    const logger = captureLogger({ secrets });
    logger.warn(text);
    return logger.records[0]?.msg ?? "(record lost)";
  },
  "host logger guard": (text, secrets) => {
    const inner = captureLogger();
    guardLogger(inner, secrets).warn(text, { nested: [text] });
    expect(inner.records[0]?.nested).toEqual([inner.records[0]?.msg]);
    return inner.records[0]?.msg ?? "(record lost)";
  },
  createMaskingLogger: (text, secrets) => {
    const inner = captureLogger();
    createMaskingLogger(inner, secrets)
      .child({ at: text })
      .warn(text, { error: new UnavailableError(text, { hint: text }) });
    const record = inner.records[0]!;
    expect([record.at, (record.error as { message: string }).message]).toEqual([record.msg, record.msg]);
    return record.msg;
  },
  maskError: (text, secrets) => (maskError(new UnavailableError(text), secrets) as Error).message,
  toStatus: (text, secrets) => toStatus(new UnavailableError(text), { secrets }).details ?? "",
  "HTTP client error": async (text, secrets) => {
    sink ??= await startSink();
    sink.behave({ status: 400, body: text });
    const http = createHttpClient({ redact: secrets, retry: false });
    const error = await http.postJson(`${sink.url}/hook`, {}).then(
      () => new Error("expected a failure"),
      (e: unknown) => e as Error,
    );
    return error.message.replace(/^.* answered HTTP 400: /, "");
  },
};

describe("secret masking", () => {
  for (const c of cases) {
    it.each(Object.keys(maskers))(`${c.what}: %s masks it whole`, async (name) => {
      expect(await maskers[name]!(c.text, c.secrets)).toBe(c.masked);
    });
  }

  it("leaves values shorter than 4 characters alone (they would mask ordinary words) everywhere", async () => {
    for (const masker of Object.values(maskers)) expect(await masker("a abc b", ["abc"])).toBe("a abc b");
  });
});

describe("createMaskingLogger over a user's logger", () => {
  it("masks secrets inside objects that are not plain, as a JSON logger would print them", () => {
    const secret = "https://hooks.example/T000/B000/s3cr3t-webhook-path";
    const printed: string[] = [];
    const user = {
      debug: () => {},
      info: () => {},
      warn: (message: string, fields?: Record<string, unknown>) =>
        void printed.push(JSON.stringify({ message, ...fields })),
      error: () => {},
      child: () => user,
    };
    class Target {
      readonly kind = "webhook";
      constructor(readonly url: string) {}
    }
    createMaskingLogger(user, [secret]).warn("posting", {
      url: new URL(secret),
      target: new Target(secret),
      headers: new Map([["x-target", secret]]),
      seen: new Set([secret]),
      when: new Date(0),
      nested: { list: [new URL(secret)] },
    });
    expect(printed).toHaveLength(1);
    expect(printed[0]).not.toContain("s3cr3t");
    expect(JSON.parse(printed[0]!)).toMatchObject({ target: { kind: "webhook" }, when: "1970-01-01T00:00:00.000Z" });
  });
});
