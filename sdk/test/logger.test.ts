import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { redactSecrets } from "../src/secret-mask.js";
import { createLogger, InvalidConfigError } from "./support/internals.js";

describe("createLogger", () => {
  it("writes one hclog JSON object per line: @level, @message, @timestamp and fields", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "info", fields: { channel: "c" }, write: (l) => lines.push(l) });
    logger.debug("hidden");
    logger.child({ call: "notify" }).warn("slow", { ms: 12, error: new InvalidConfigError("bad") });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith("\n")).toBe(true);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      "@level": "warn",
      "@message": "slow",
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
    expect(quoted[0]).not.toContain("word");
  });
});

describe("createLogger line format", () => {
  const capture = () => {
    const lines: string[] = [];
    return { lines, write: (l: string) => lines.push(l) };
  };
  // What the fast encoder must equal: spread semantics and a replacer that
  // writes errors as {name,message,code} and bigints as strings.
  // A field named like one of hclog's keys is written under `_` + its name.
  const renamed = (fields: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.startsWith("@") ? `_${k}` : k, v]));
  const reference = (level: string, msg: string, base: Record<string, unknown>, extra?: Record<string, unknown>) =>
    JSON.parse(
      JSON.stringify({ "@level": level, "@message": msg, ...renamed({ ...base, ...extra }) }, (_k, v: unknown) =>
        v instanceof Error
          ? {
              name: v.name,
              message: v.message,
              ...((v as { code?: unknown }).code !== undefined ? { code: (v as { code?: unknown }).code } : {}),
            }
          : typeof v === "bigint"
            ? v.toString()
            : v,
      ),
    ) as Record<string, unknown>;
  const withoutTime = (line: string) => {
    const { "@timestamp": time, ...rest } = JSON.parse(line) as Record<string, unknown>;
    // go-plugin parses it with the layout 2006-01-02T15:04:05.000000Z07:00: exactly six fractional digits.
    expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(Math.abs(Date.parse(time as string) - Date.now())).toBeLessThan(60_000);
    return rest;
  };

  it("encodes every kind of value as JSON.stringify with spread would, keys in the same order", () => {
    const out = capture();
    const base = { component: "webhook" };
    const logger = createLogger({ level: "debug", fields: base, write: out.write });
    const records: Array<[string, Record<string, unknown> | undefined]> = [
      [
        "webhook request",
        {
          source: "codehost_a",
          delivery_id: "d-1",
          status: 200,
          tickets: ["1", "2"],
          approvals: undefined,
          duration_ms: 1.5,
        },
      ],
      [
        "odd values",
        {
          nan: Number.NaN,
          big: 12n,
          fn: () => 1,
          nested: { e: new Error("inner"), list: [1, undefined] },
          yes: true,
          nil: null,
        },
      ],
      ["an error", { error: Object.assign(new Error("boom"), { code: "ERR_X" }) }],
      [
        "overrides",
        { component: "other", msg: "plain", level: "plain", "@level": "error", "@message": 5, "@timestamp": 1 },
      ],
      ["clash only", { "@message": { not: "a string" } }],
      ['quotes " and \\ and \n', undefined],
    ];
    for (const [msg, fields] of records) logger.info(msg, fields);
    logger.child({ request: 7 }).warn("child", { x: 1 });
    expect(out.lines.every((l) => l.endsWith("}\n") && !l.slice(0, -1).includes("\n"))).toBe(true);
    const expected = [
      ...records.map(([msg, fields]) => reference("info", msg, base, fields)),
      reference("warn", "child", { ...base, request: 7 }, { x: 1 }),
    ];
    expect(out.lines.map(withoutTime)).toEqual(expected);
    expect(out.lines.map((l) => Object.keys(JSON.parse(l)).filter((k) => k !== "@timestamp"))).toEqual(
      expected.map((e) => Object.keys(e)),
    );
    expect(out.lines.every((l) => l.startsWith('{"@level":"'))).toBe(true);
  });

  it("masks static and late secrets, raw and JSON-escaped, but not values under four characters", () => {
    const out = capture();
    const late: string[] = [];
    const logger = createLogger({ secrets: ['pa"ss\\word-123', "abc"], redact: () => late, write: out.write });
    late.push("xoxb-late-token");
    logger.error('failed with pa"ss\\word-123 and xoxb-late-token', {
      header: 'pa"ss\\word-123',
      error: new Error("token xoxb-late-token"),
      short: "abc",
    });
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
    expect(out.lines.map((l) => JSON.parse(l)["@level"])).toEqual(["warn", "error"]);
  });
});

describe("createLogger never throws", () => {
  const capture = () => {
    const lines: string[] = [];
    return {
      lines,
      write: (l: string) => lines.push(l),
      records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
    };
  };
  const circular = () => {
    const res: Record<string, unknown> = { status: 500, list: [1] };
    res.self = res;
    (res.list as unknown[]).push(res);
    return res;
  };

  it("writes a circular value as [Circular], keeping the rest of the record and the fields around it", () => {
    const out = capture();
    const logger = createLogger({ fields: { channel: "c" }, write: out.write });
    logger.info("got response", { before: 1, res: circular(), after: 2n });
    const shared = { a: 1 };
    logger.info("shared is not circular", { pair: [shared, shared], res: circular() });
    expect(out.records()).toMatchObject([
      {
        "@message": "got response",
        channel: "c",
        before: 1,
        res: { status: 500, list: [1, "[Circular]"], self: "[Circular]" },
        after: "2",
      },
      { "@message": "shared is not circular", pair: [{ a: 1 }, { a: 1 }] },
    ]);
    expect(Object.keys(out.records()[0]!)).toEqual([
      "@level",
      "@message",
      "@timestamp",
      "channel",
      "before",
      "res",
      "after",
    ]);
    logger.error("slow path with a clash", { res: circular(), "@level": "x" });
    expect(Object.keys(out.records()[2]!)).toEqual(["@level", "@message", "@timestamp", "channel", "res", "_@level"]);
    expect(out.records()[2]!["@level"]).toBe("error");
  });

  it("writes a throwing toJSON or getter as a marker string, and errors inside as usual", () => {
    const out = capture();
    const logger = createLogger({ write: out.write });
    const hostile = {
      ok: "yes",
      get bad(): string {
        throw new Error("getter boom");
      },
    };
    const badJson = {
      toJSON: () => {
        throw new TypeError("toJSON boom");
      },
    };
    const loop = circular();
    logger.warn("hostile", {
      hostile,
      badJson,
      error: Object.assign(new Error("e"), { code: "ERR_X", loop }),
      nested: { deep: [badJson] },
    });
    expect(out.records()[0]).toMatchObject({
      hostile: { ok: "yes", bad: "[Unserializable: a getter threw Error: getter boom]" },
      badJson: "[Unserializable: toJSON threw TypeError: toJSON boom]",
      error: { name: "Error", message: "e", code: "ERR_X" },
      nested: { deep: ["[Unserializable: toJSON threw TypeError: toJSON boom]"] },
    });
  });

  it("survives a throwing getter on the fields object itself, in child fields, and a circular base", () => {
    const out = capture();
    const fields = Object.defineProperty({ fine: 1 }, "broken", {
      enumerable: true,
      get() {
        throw new Error("fields getter");
      },
    });
    const logger = createLogger({ fields: { loop: circular() }, write: out.write });
    logger.info("a", fields);
    const child = logger.child(fields);
    child.info("b", { x: 1 });
    child.info("c", { loop: "override" });
    expect(out.records()).toMatchObject([
      {
        "@message": "a",
        loop: { self: "[Circular]" },
        fine: 1,
        broken: "[Unserializable: a getter threw Error: fields getter]",
      },
      { "@message": "b", fine: 1, broken: "[Unserializable: a getter threw Error: fields getter]", x: 1 },
      { "@message": "c", loop: "override" },
    ]);
  });

  it("nests to any depth without overflowing the stack", () => {
    const out = capture();
    let deep: unknown = "bottom";
    for (let i = 0; i < 20_000; i++) deep = [deep];
    createLogger({ write: out.write }).info("deep", { deep });
    expect(out.lines[0]).toContain('"[Too deep]"');
    expect(() => JSON.parse(out.lines[0]!)).not.toThrow();
  });

  it("turns a message that is not a string (plain JavaScript callers) into one", () => {
    const out = capture();
    const logger = createLogger({ write: out.write }) as unknown as { info(m: unknown, f?: unknown): void };
    logger.info(undefined);
    logger.info({ not: "a string" });
    logger.info(Object.create(null));
    logger.info(new Error("as message"));
    expect(out.records().map((r) => r["@message"])).toEqual([
      "undefined",
      "[object Object]",
      expect.stringMatching(/^\[Unprintable: TypeError/),
      "Error: as message",
    ]);
  });

  it("a write or redact callback that throws loses the line, never the caller's work", () => {
    const throwing = createLogger({
      write: () => {
        throw new Error("disk full");
      },
    });
    expect(() => throwing.error("x", { a: 1 })).not.toThrow();
    const lines: string[] = [];
    const redacting = createLogger({
      write: (l) => lines.push(l),
      redact: () => {
        throw new Error("no secrets");
      },
    });
    expect(() => redacting.info("token xoxb-123")).not.toThrow();
    expect(lines).toEqual([]);
  });

  it("the default sink keeps the process alive when stderr is gone (EPIPE)", async () => {
    // A real process whose stderr reader goes away, as a plugin's does when its host is killed.
    const script = `
      const { createLogger } = await import(${JSON.stringify(new URL("../dist/host/index.js", import.meta.url).href)});
      const logger = createLogger();
      process.stdout.write("ready\\n");
      setTimeout(() => {
        for (let i = 0; i < 2000; i++) logger.info("after the reader left", { i, pad: "x".repeat(100) });
        setTimeout(() => process.stdout.write("survived\\n"), 100);
      }, 200);
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    child.stderr.destroy();
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect({ code, stdout }).toEqual({ code: 0, stdout: "ready\nsurvived\n" });
  });
});
