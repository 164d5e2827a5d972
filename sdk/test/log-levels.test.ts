import { describe, expect, it } from "vitest";
import { guardLogger } from "../src/host/host-logger.js";
import { createLogger, type Logger, silentLogger } from "../src/logger.js";
import { createMaskingLogger } from "../src/secret-mask-errors.js";

// A record below the logger's level costs nothing: no field is read,
// encoded or masked. Every record that is written is masked as before
// (secret-mask.test.ts, logger.test.ts).

const SECRET = "hunter2-secret-value";

/** Fields whose one value, a text quoting the secret, counts how often it is read. */
function probe() {
  const seen = { reads: 0 };
  const fields = {
    get value() {
      seen.reads++;
      return `token ${SECRET}`;
    },
  };
  return { seen, fields };
}

function sdkLogger(level: "info" | "warn") {
  const lines: string[] = [];
  return { lines, logger: createLogger({ level, write: (line) => lines.push(line) }) };
}

describe("a level that is off", () => {
  it("costs a masking logger over an SDK logger nothing: no field read, nothing masked", () => {
    const { lines, logger } = sdkLogger("info");
    const masking = createMaskingLogger(logger, [SECRET]);
    const { seen, fields } = probe();
    masking.debug(`debug ${SECRET}`, fields);
    masking.child({ call: "notify" }).debug("debug in a child", fields);
    expect(seen.reads).toBe(0);
    expect(lines).toEqual([]);
    masking.info(`info ${SECRET}`, fields);
    expect(seen.reads).toBeGreaterThan(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(SECRET);
    expect(JSON.parse(lines[0]!)).toMatchObject({ "@message": "info [redacted]", value: "token [redacted]" });
  });

  it("costs the host's guarded logger nothing either, and silentLogger's wrappers nothing at any level", () => {
    const { lines, logger } = sdkLogger("warn");
    const { seen, fields } = probe();
    const guarded = guardLogger(logger, [SECRET]);
    guarded.info("info", fields);
    guarded.child({ pid: 1 }).debug("debug", fields);
    guardLogger(silentLogger, [SECRET]).error("error", fields);
    expect(seen.reads).toBe(0);
    guarded.warn(`warn ${SECRET}`, fields);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(SECRET);
  });

  it("costs an SDK child logger no encoding of its own fields until it writes a record", () => {
    const lines: string[] = [];
    let encodes = 0;
    const value = {
      toJSON: () => {
        encodes++;
        return `token ${SECRET}`;
      },
    };
    const logger = createLogger({ level: "info", write: (line) => lines.push(line), secrets: [SECRET] });
    const child = logger.child({ value });
    child.debug("not written");
    expect(encodes).toBe(0);
    child.info("written");
    expect(encodes).toBe(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ "@message": "written", value: "token [redacted]" });
  });

  it("is unknown for a logger the SDK did not make: every record is masked before it gets it", () => {
    const got: unknown[] = [];
    const keep = (message: string, fields?: Record<string, unknown>) => got.push([message, fields]);
    const inner: Logger = { debug: keep, info: keep, warn: keep, error: keep, child: () => inner };
    const { seen, fields } = probe();
    createMaskingLogger(inner, [SECRET]).debug(`debug ${SECRET}`, fields);
    expect(seen.reads).toBe(1);
    expect(got).toHaveLength(1);
    expect(JSON.stringify(got)).not.toContain(SECRET);
  });
});
