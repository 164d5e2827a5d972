import { describe, expect, it } from "vitest";
import { checkChannelName, defineChannel, InvalidArgumentError } from "./support/internals.js";

const handlers = { notify() {}, notifyStart() {}, notifyComplete() {} };

describe("defineChannel", () => {
  it("accepts a valid definition and returns it unchanged", () => {
    const definition = { name: "team-alerts_2", version: "1.0.0-beta.1", ...handlers };
    expect(defineChannel(definition)).toBe(definition);
  });

  it.each(["", "Chat", "1chat", "chat a", "chat.a", "ç", "a".repeat(64)])("rejects the channel name %j", (name) => {
    expect(checkChannelName(name)).toMatch(/channel name|missing/);
    expect(() => defineChannel({ name, version: "1.0.0", ...handlers })).toThrow(InvalidArgumentError);
  });

  it("lists every problem at once, naming the field", () => {
    const bad = { name: "ok", version: "v1", notify: "nope", interfaceVersions: [0] } as never;
    expect(() => defineChannel(bad)).toThrow(
      /version "v1" is not a semantic version.*notify must be a function.*notifyStart must be a function.*notifyComplete must be a function.*interfaceVersions/,
    );
  });
});
