import { readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fixtureEngine } from "./helpers/fixture-engine.js";
import { fixture, localBackend, recordingHooks, specFor } from "./helpers/local-setup.js";

const MiB = 1024 * 1024;
const KEY = "sk-test-0123456789abcdef";

describe("local backend: output and log", () => {
  it("logs each line with its stream's prefix, between the backend's own notes", async () => {
    const { backend } = localBackend();
    const { engine } = fixtureEngine({ args: [fixture("write-result.mjs"), "first", "second"] });
    const handle = await backend.start(specFor(engine), recordingHooks());
    await handle.done;
    const lines = readFileSync(handle.logRef, "utf8").trimEnd().split("\n");
    expect(lines[0]).toMatch(/^\[errand\] starting .*write-result\.mjs first second in \//);
    expect(lines[1]).toBe(`[errand] started: pid ${handle.attachment.pid}, process group ${handle.attachment.pid}`);
    expect(lines.filter((l) => !l.startsWith("[errand] ")).sort()).toEqual([
      "[stderr] working on it",
      "[stdout] first",
      "[stdout] second",
    ]);
    expect(lines.at(-1)).toMatch(/^\[errand\] workspace kept: /);
    expect(lines.at(-2)).toMatch(/^\[errand\] exited with code 0 after \d+ ms; failed: no result file/);
  });

  it("caps the log, marks the cut once, and still parses every line", async () => {
    const { backend } = localBackend({ logMaxBytes: 4096 });
    const { engine, record } = fixtureEngine({ args: [fixture("chatty.mjs"), "1000"] });
    const handle = await backend.start(specFor(engine), recordingHooks());
    await handle.done;
    const log = readFileSync(handle.logRef, "utf8");
    const output = log.split("\n").filter((l) => l.startsWith("[stdout] "));
    expect(record.lines.filter((l) => l.stream === "stdout")).toHaveLength(1000);
    expect(output.length).toBeGreaterThan(10);
    expect(output.length).toBeLessThan(1000);
    expect(output.join("\n").length).toBeLessThanOrEqual(4096);
    expect(log.match(/log truncated at 4096 bytes/g)).toHaveLength(1);
    // Every line is 50 bytes plus the 9-byte prefix; what was dropped is counted.
    const kept = output.length;
    expect(log).toContain(`[errand] ${(1000 - kept) * 59} bytes of output after the cap were not kept`);
    expect(statSync(handle.logRef).size).toBeLessThan(4096 + 1024);
  });

  it("cuts very long lines, handles CRLF and a last line without newline, and never logs the API key", async () => {
    const { backend } = localBackend({ logMaxBytes: 8 * MiB });
    const { engine, record } = fixtureEngine({ args: [fixture("long-lines.mjs")], apiKeyEnv: "FIXTURE_KEY" });
    const handle = await backend.start(specFor(engine, KEY), recordingHooks());
    await handle.done;
    const stdout = record.lines.filter((l) => l.stream === "stdout").map((l) => l.text);
    expect(stdout.map((t) => t.length)).toEqual([MiB, 5, 4 + KEY.length]);
    expect(stdout[0]).toBe("a".repeat(MiB));
    expect(stdout.slice(1)).toEqual(["short", `key=${KEY}`]);
    expect(record.lines.filter((l) => l.stream === "stderr")).toEqual([{ stream: "stderr", text: "partial" }]);
    const log = readFileSync(handle.logRef, "utf8");
    expect(log).toContain(`[line truncated: ${3 * MiB} bytes]`);
    expect(log).toContain("[stdout] key=[redacted]\n");
    expect(log).toContain("[stderr] partial\n");
    expect(log).not.toContain(KEY);
  });

  it("keeps reading when the parser throws", async () => {
    const { backend, logger } = localBackend();
    const { engine, record } = fixtureEngine({ args: [fixture("chatty.mjs"), "50"], throwOnLine: true });
    const handle = await backend.start(specFor(engine), {
      onEvent() {
        throw new Error("hook bug");
      },
    });
    const { result } = await handle.done;
    expect(record.lines.filter((l) => l.stream === "stdout")).toHaveLength(50);
    expect(result.failureReason).toContain("no result file");
    expect(logger.records.filter((r) => r.message.includes("output parser threw"))).toHaveLength(1);
  });

  it("passes hooks' failures by and logs them once", async () => {
    const { backend, logger } = localBackend();
    const { engine } = fixtureEngine({ args: [fixture("chatty.mjs"), "20"] });
    let calls = 0;
    const handle = await backend.start(specFor(engine), {
      onEvent() {
        calls += 1;
        throw new Error("hook bug");
      },
    });
    await handle.done;
    expect(calls).toBe(20);
    expect(logger.records.filter((r) => r.message.includes("a run hook threw"))).toHaveLength(1);
  });

  it("reads the log's tail from a line boundary, and undefined for a run without a log", async () => {
    const { backend } = localBackend();
    const { engine } = fixtureEngine({ args: [fixture("chatty.mjs"), "100"] });
    const spec = specFor(engine);
    const handle = await backend.start(spec, recordingHooks());
    await handle.done;
    const run = { ...spec.run, logRef: handle.logRef, attachment: handle.attachment };
    const tail = await backend.readLog(run, 500);
    expect(tail).toBeDefined();
    expect(Buffer.byteLength(tail ?? "")).toBeLessThanOrEqual(500);
    expect(tail?.startsWith("[")).toBe(true);
    expect(readFileSync(handle.logRef, "utf8").endsWith(tail ?? "-")).toBe(true);
    expect(
      await backend.readLog({ ...spec.run, id: "run_nothing", logRef: undefined, attachment: undefined }, 500),
    ).toBeUndefined();
  });
});

describe("local backend: result files that cannot be used", () => {
  it.each([
    ["big", "the result file exceeds 1 MiB (1100000 bytes)"],
    ["fifo", "is not a regular file"],
  ])("%s: the engine gets no text, and the failure says why", async (kind, problem) => {
    const { backend } = localBackend();
    const { engine, record } = fixtureEngine({ command: "sh", args: [fixture("odd-result.sh"), kind] });
    const { result } = await (await backend.start(specFor(engine), recordingHooks())).done;
    expect(record.exits[0]?.resultFile).toBeUndefined();
    expect(record.exits[0]?.resultFileProblem).toContain(problem);
    expect(result.success).toBe(false);
    expect(result.failureReason).toContain(problem);
  });
});
