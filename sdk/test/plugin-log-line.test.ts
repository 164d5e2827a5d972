import { describe, expect, it } from "vitest";
import { parsePluginLogLine } from "../src/host/plugin-log-line.js";
import { createLogger } from "../src/logger.js";

describe("parsePluginLogLine reads a plugin's stderr as a go-plugin host does", () => {
  it("reads hclog JSON at its level: @message as the message, @module as a field, other keys as fields", () => {
    // A line as go-hclog's JSON format writes it (keys sorted, as Go's encoder does).
    const line =
      '{"@level":"error","@message":"post failed","@module":"chat.sender","@timestamp":"2026-11-25T19:13:38.123456Z","status":500}';
    expect(parsePluginLogLine(line)).toEqual({
      level: "error",
      message: "post failed",
      fields: { module: "chat.sender", status: 500 },
    });
    expect(parsePluginLogLine('{"@level":"trace","@message":"t"}').level).toBe("debug");
    expect(parsePluginLogLine('{"@level":"WARN","@message":"w"}').level).toBe("warn");
  });

  it("reads every level the SDK's own logger writes", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "debug", fields: { channel: "echo" }, write: (l) => lines.push(l) });
    for (const level of ["debug", "info", "warn", "error"] as const) logger[level](`at ${level}`, { n: 1 });
    expect(lines.map((l) => parsePluginLogLine(l.trimEnd()))).toEqual(
      ["debug", "info", "warn", "error"].map((level) => ({
        level,
        message: `at ${level}`,
        fields: { channel: "echo", n: 1 },
      })),
    );
  });

  it("still reads the {time, level, msg} lines of plugins built with SDK 0.1.0", () => {
    expect(parsePluginLogLine('{"time":"2026-01-02T03:04:05.678Z","level":"error","msg":"old","channel":"c"}')).toEqual(
      { level: "error", message: "old", fields: { channel: "c" } },
    );
  });

  it("takes a [LEVEL] prefix of a plain line as its level, as go-plugin does, and anything else verbatim at info", () => {
    expect(parsePluginLogLine("[ERROR] plain failure")).toEqual({
      level: "error",
      message: "[ERROR] plain failure",
      fields: { stream: "stderr" },
    });
    expect(parsePluginLogLine("[WARN] careful").level).toBe("warn");
    expect(parsePluginLogLine("TypeError: x is not a function")).toEqual({
      level: "info",
      message: "TypeError: x is not a function",
      fields: { stream: "stderr" },
    });
    expect(parsePluginLogLine("{not json")).toEqual({
      level: "info",
      message: "{not json",
      fields: { stream: "stderr" },
    });
    expect(parsePluginLogLine("[1,2]").message).toBe("[1,2]");
  });

  it("keeps the whole line as the message when @message is not a string, and an unknown level at info", () => {
    const line = '{"@level":"fatal","@message":5}';
    expect(parsePluginLogLine(line)).toEqual({ level: "info", message: line, fields: {} });
  });
});
