import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sendCommand } from "../src/channel/send-command.js";
import { runCli } from "./helpers/cli.js";

const ECHO = fileURLToPath(new URL("../../sdk/test/fixtures/plugins/echo.mjs", import.meta.url));
const NO_HANDSHAKE = fileURLToPath(new URL("./fixtures/broken/no-handshake.mjs", import.meta.url));

describe("channel send --timeout", () => {
  it.each(["abc", "0", "-5", "1e12", "Infinity", ""])(
    "refuses %j as a usage error (exit 2) naming the option, without starting the plugin",
    async (value) => {
      const r = await runCli("channel", ["send", "start", "--timeout", value, "--", process.execPath, ECHO]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`option '--timeout <ms>' argument '${value}' is invalid`);
      expect(r.stderr).toContain("milliseconds above 0");
      expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
    },
  );

  it("accepts a valid deadline", async () => {
    const r = await runCli("channel", ["send", "start", "--timeout", "2500", "--", process.execPath, ECHO]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✓ echo 1\.2\.3: start delivered/);
  });

  it("sendCommand itself refuses unparsed text, for callers that bypass the command line", async () => {
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      const code = await sendCommand("start", [process.execPath, ECHO], { message: "m", engine: "e", timeout: "abc" });
      expect(code).toBe(2);
    } finally {
      process.stderr.write = write;
    }
    expect(written.join("")).toContain("--timeout abc: use a number of milliseconds above 0");
  });
});

describe("channel send --start-timeout", () => {
  it("gives a slow plugin the time asked for, and says how to give it more", async () => {
    const started = Date.now();
    const r = await runCli("channel", [
      "send",
      "start",
      "--start-timeout",
      "400",
      "--",
      process.execPath,
      NO_HANDSHAKE,
    ]);
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain("no handshake line within 400 ms");
    expect(r.stderr).toContain("--start-timeout");
    // Well under the default 10 s: the option reached the SDK.
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it.each(["0", "abc", "600001"])("refuses %j as a usage error (exit 2)", async (value) => {
    const r = await runCli("channel", ["send", "start", "--start-timeout", value, "--", process.execPath, ECHO]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`option '--start-timeout <ms>' argument '${value}' is invalid`);
  });
});
