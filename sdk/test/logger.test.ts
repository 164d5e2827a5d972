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
