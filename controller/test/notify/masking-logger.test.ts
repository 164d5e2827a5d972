import { InvalidConfigError } from "@errand/channel-sdk";
import { createMaskingLogger } from "@errand/channel-sdk/host";
import { captureLogger } from "@errand/channel-sdk/testing";
import { describe, expect, it } from "vitest";

const SECRET = "xoxb-1234-very-secret";

describe("masking logger", () => {
  it("masks secret values in messages, nested fields, errors and child fields before the inner logger sees them", () => {
    const inner = captureLogger();
    const logger = createMaskingLogger(inner, [SECRET, ""]).child({ url: `https://hooks.example/${SECRET}` });
    logger.warn(`token ${SECRET} refused`, {
      nested: { list: [`a ${SECRET}`, 3] },
      error: new InvalidConfigError(`bad token ${SECRET}`, { hint: `rotate ${SECRET}` }),
    });
    expect(inner.records).toEqual([
      expect.objectContaining({
        msg: "token [redacted] refused",
        url: "https://hooks.example/[redacted]",
        nested: { list: ["a [redacted]", 3] },
        error: expect.objectContaining({
          code: "ERR_INVALID_CONFIG",
          message: "bad token [redacted]",
          hint: "rotate [redacted]",
        }),
      }),
    ]);
    expect(inner.lines.join("\n")).not.toContain(SECRET);
  });

  it("passes records through unchanged when there is nothing to mask", () => {
    const inner = captureLogger();
    createMaskingLogger(inner, []).info("plain", { n: 1 });
    expect(inner.records).toEqual([expect.objectContaining({ msg: "plain", n: 1 })]);
  });
});
