import { describe, expect, it } from "vitest";
import { createLogger, InvalidConfigError, redactSecrets } from "../src/index.js";

describe("createLogger", () => {
  it("writes one JSON object per line with level, message and fields", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "info", fields: { channel: "c" }, write: (l) => lines.push(l) });
    logger.debug("hidden");
    logger.child({ call: "notify" }).warn("slow", { ms: 12, error: new InvalidConfigError("bad") });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith("\n")).toBe(true);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: "warn",
      msg: "slow",
      channel: "c",
      call: "notify",
      ms: 12,
      error: { name: "InvalidConfigError", message: "bad", code: "ERR_INVALID_CONFIG" },
    });
  });

  it("masks secret values wherever they appear", () => {
    const lines: string[] = [];
    const logger = createLogger({ write: (l) => lines.push(l), redact: () => ["xoxb-123-secret"] });
    logger.error("token xoxb-123-secret rejected", { url: "https://h/?t=xoxb-123-secret" });
    expect(lines[0]).not.toContain("xoxb-123-secret");
    expect(lines[0]).toContain("[redacted]");
    expect(redactSecrets("abc", ["a"])).toBe("abc");
    const quoted: string[] = [];
    createLogger({ write: (l) => quoted.push(l), redact: () => ['pa"ss\\word'] }).info('got pa"ss\\word');
    expect(quoted[0]).not.toContain("ss");
  });
});

describe("createLogger line format", () => {
  const capture = () => {
    const lines: string[] = [];
    return { lines, write: (l: string) => lines.push(l) };
  };
  // What the fast encoder must equal: spread semantics and a replacer that
  // writes errors as {name,message,code} and bigints as strings.
  const reference = (level: string, msg: string, base: Record<string, unknown>, extra?: Record<string, unknown>) =>
    JSON.parse(
      JSON.stringify({ level, msg, ...base, ...extra }, (_k, v: unknown) =>
        v instanceof Error
          ? { name: v.name, message: v.message, ...((v as { code?: unknown }).code !== undefined ? { code: (v as { code?: unknown }).code } : {}) }
          : typeof v === "bigint"
            ? v.toString()
            : v,
      ),
    ) as Record<string, unknown>;
  const withoutTime = (line: string) => {
    const { time, ...rest } = JSON.parse(line) as Record<string, unknown>;
    expect(new Date(time as string).toISOString()).toBe(time);
    expect(Math.abs(Date.parse(time as string) - Date.now())).toBeLessThan(60_000);
    return rest;
  };

  it("encodes every kind of value as JSON.stringify with spread would, keys in the same order", () => {
    const out = capture();
    const base = { component: "webhook" };
    const logger = createLogger({ level: "debug", fields: base, write: out.write });
    const records: Array<[string, Record<string, unknown> | undefined]> = [
      ["webhook request", { source: "codehost_a", delivery_id: "d-1", status: 200, tickets: ["1", "2"], approvals: undefined, duration_ms: 1.5 }],
      ["odd values", { nan: Number.NaN, big: 12n, fn: () => 1, nested: { e: new Error("inner"), list: [1, undefined] }, yes: true, nil: null }],
      ["an error", { error: Object.assign(new Error("boom"), { code: "ERR_X" }) }],
      ["overrides", { component: "other", msg: "shadow", level: "shadow" }],
      ['quotes " and \\ and \n', undefined],
    ];
    for (const [msg, fields] of records) logger.info(msg, fields);
    logger.child({ request: 7 }).warn("child", { x: 1 });
    expect(out.lines.every((l) => l.endsWith("}\n") && !l.slice(0, -1).includes("\n"))).toBe(true);
    const expected = [...records.map(([msg, fields]) => reference("info", msg, base, fields)), reference("warn", "child", { ...base, request: 7 }, { x: 1 })];
    expect(out.lines.map(withoutTime)).toEqual(expected);
    expect(out.lines.map((l) => Object.keys(JSON.parse(l)).slice(1))).toEqual(expected.map((e) => Object.keys(e)));
  });

  it("masks static and late secrets, raw and JSON-escaped, but not values under four characters", () => {
    const out = capture();
    const late: string[] = [];
    const logger = createLogger({ secrets: ['pa"ss\\word-123', "abc"], redact: () => late, write: out.write });
    late.push("xoxb-late-token");
    logger.error('failed with pa"ss\\word-123 and xoxb-late-token', { header: 'pa"ss\\word-123', error: new Error("token xoxb-late-token"), short: "abc" });
    const text = out.lines.join("");
    expect(text).not.toContain("word-123");
    expect(text).not.toContain("xoxb-late-token");
    expect(JSON.parse(text).short).toBe("abc");
  });

  it("drops records below its level", () => {
    const out = capture();
    const logger = createLogger({ level: "warn", write: out.write });
    logger.debug("d");
    logger.info("i");
    logger.warn("w");
    logger.error("e");
    expect(out.lines.map((l) => JSON.parse(l).level)).toEqual(["warn", "error"]);
  });
});
