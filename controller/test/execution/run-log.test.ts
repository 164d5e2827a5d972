import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openRunLog } from "../../src/execution/local/run-log.js";
import { recordingLogger, tempDir } from "./helpers/local-setup.js";

const line = (text: string) => ({ text, truncated: false, bytes: Buffer.byteLength(text) });

describe("run log", () => {
  it("drops the engine's output after endOutput() and still writes the backend's notes, so the end stays last", () => {
    const path = join(tempDir(), "logs", "run_x.log");
    const log = openRunLog({ path, maxBytes: 1024, secret: undefined, logger: recordingLogger() });
    log.output("stdout", line("working"));
    log.endOutput();
    log.note("exited with code 0 after 5 ms; succeeded");
    log.output("stderr", line("late line, queued before the pipes closed"));
    log.note("could not remove the workspace /w: EBUSY");
    log.close();
    log.note("after close: dropped");
    expect(readFileSync(path, "utf8")).toBe(
      "[stdout] working\n[errand] exited with code 0 after 5 ms; succeeded\n[errand] could not remove the workspace /w: EBUSY\n",
    );
  });
});
