import { InvalidConfigError } from "@errand/channel-sdk";
import { loadChannel } from "@errand/channel-sdk/host";
import { captureLogger, fixtures } from "@errand/channel-sdk/testing";
import { describe, expect, it } from "vitest";
import { channel } from "../src/channel.js";

describe("{{name}}", () => {
  it("handles every kind of notification", async () => {
    const logger = captureLogger();
    const ch = await loadChannel(channel, { config: { prefix: "[test]" }, logger });
    await ch.notifyStart(fixtures.tickets.basic, { engine: "claude-code" });
    await ch.notify("hello", fixtures.tickets.unicode);
    await ch.notifyComplete(fixtures.tickets.basic, fixtures.results.failure);
    expect(logger.records.map((r) => r.msg)).toEqual([
      `[test] started ${fixtures.tickets.basic.title}`,
      "[test] hello",
      `[test] failed on ${fixtures.tickets.basic.title}: ${fixtures.results.failure.failureReason}`,
    ]);
    await ch.close();
  });

  it("refuses an invalid config with a hint", async () => {
    const error = await loadChannel(channel, { config: { prefix: 42 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect((error as InvalidConfigError).message).toContain("config.prefix: must be a string");
    expect((error as InvalidConfigError).hint).toBeTruthy();
  });
});
