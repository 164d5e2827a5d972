import { createLogger } from "@errand/channel-sdk";
import { describe, expect, it } from "vitest";
import { createJsonLogger } from "../src/index.js";

const capture = () => {
  const lines: string[] = [];
  return { lines, write: (l: string) => lines.push(l) };
};
const withoutTime = (line: string) => {
  const { time, ...rest } = JSON.parse(line) as Record<string, unknown>;
  expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect(new Date(time as string).toISOString()).toBe(time);
  expect(Math.abs(Date.parse(time as string) - Date.now())).toBeLessThan(60_000);
  return rest;
};

describe("createJsonLogger", () => {
  it("writes the same records as the SDK logger, one JSON line each", () => {
    const fast = capture();
    const sdk = capture();
    const a = createJsonLogger({ level: "debug", fields: { component: "webhook" }, write: fast.write });
    const b = createLogger({ level: "debug", fields: { component: "webhook" }, write: sdk.write });
    const records: Array<[string, Record<string, unknown> | undefined]> = [
      ["webhook request", { source: "codehost_a", outcome: "accepted", delivery_id: "d-1", status: 200, tickets: ["1", "2"], approvals: undefined, duration_ms: 1.5 }],
      ["odd values", { nan: Number.NaN, big: 12n, fn: () => 1, nested: { e: new Error("inner"), list: [1, undefined] }, yes: true, nil: null }],
      ["an error", { error: Object.assign(new Error("boom"), { code: "ERR_X" }) }],
      ["overrides", { component: "other", msg: "shadow", level: "shadow" }],
      ["quotes \" and \\ and \n", undefined],
    ];
    for (const [msg, fields] of records) {
      a.info(msg, fields);
      b.info(msg, fields);
    }
    a.child({ request: 7 }).warn("child", { x: 1 });
    b.child({ request: 7 }).warn("child", { x: 1 });
    expect(fast.lines.every((l) => l.endsWith("}\n") && !l.slice(0, -1).includes("\n"))).toBe(true);
    expect(fast.lines.map(withoutTime)).toEqual(sdk.lines.map(withoutTime));
    // Same key order too, so the lines read the same.
    expect(fast.lines.map((l) => Object.keys(JSON.parse(l)))).toEqual(sdk.lines.map((l) => Object.keys(JSON.parse(l))));
  });

  it("masks every configured secret, raw and JSON-escaped, in messages and fields", () => {
    const out = capture();
    const secret = 'pa"ss\\word-123';
    const logger = createJsonLogger({ secrets: [secret, "abc"], write: out.write });
    logger.error(`failed with ${secret}`, { header: secret, error: new Error(`token ${secret}`), short: "abc" });
    const text = out.lines.join("");
    expect(text).not.toContain(secret);
    expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(text).toContain("[redacted]");
    // Values under four characters are not masked: they would hide ordinary words.
    expect(JSON.parse(text).short).toBe("abc");
  });

  it("drops records below its level", () => {
    const out = capture();
    const logger = createJsonLogger({ level: "warn", write: out.write });
    logger.debug("d");
    logger.info("i");
    logger.warn("w");
    logger.error("e");
    expect(out.lines.map((l) => JSON.parse(l).level)).toEqual(["warn", "error"]);
  });
});
