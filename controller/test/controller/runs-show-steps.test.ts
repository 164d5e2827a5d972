import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createHarness, finished, postTicket, startInProcess, ticketBody } from "./harness.js";

const BIN = resolve(import.meta.dirname, "../../../node_modules/.bin/errand");
const CLAUDE = resolve(import.meta.dirname, "../fixtures/engines/claude");
const errand = (args: string[]) =>
  spawnSync(BIN, args, { env: { ...process.env, NO_COLOR: "1" }, encoding: "utf8", timeout: 20_000 });

describe("errand runs show, for a stream-json engine", () => {
  it("shows the log as readable steps, and as the engine's lines with --raw", async () => {
    const h = createHarness({ engine: "ok.sh" });
    // The fake Claude Code as the default engine, its output in the run log as the real one's would be.
    const claude = `engines:\n  default: claude\n  claude:\n    kind: claude_code\n    command: [${JSON.stringify(CLAUDE)}]\n    auth: { method: none }\n`;
    writeFileSync(
      h.configFile,
      readFileSync(h.configFile, "utf8").replace("engines:\n  default: fixture\n", `${claude}`),
    );
    const controller = await startInProcess(h);
    const store = await h.openStore();
    try {
      const { id, body } = ticketBody();
      expect((await postTicket(controller.webhookPort, body)).status).toBe(200);
      const run = await finished(store, id);
      expect(run.state).toBe("Succeeded");

      const shown = errand(["runs", "show", run.id, "--config", h.configFile]);
      expect(shown.status, shown.stderr).toBe(0);
      const log = shown.stdout.slice(shown.stdout.indexOf("\nLog ("));
      expect(log).toContain("last steps; --raw for the lines)");
      expect(log).toContain(
        "\n  assistant: I'll start by cloning the repository.\n  tool Bash: git clone https://github.com/acme/widgets .\n  tool result: ok (1 line)\n",
      );
      expect(log).toContain("\n  result: success, $0.12, 4 turns, 31s\n");
      expect(log).not.toContain('{"type"');
      expect(Math.max(...log.split("\n").map((l) => l.length))).toBeLessThan(400);

      const raw = errand(["runs", "show", run.id, "--config", h.configFile, "--raw", "--log-bytes", "100000"]);
      expect(raw.status, raw.stderr).toBe(0);
      expect(raw.stdout).toContain('[stdout] {"type":"result","subtype":"success"');
      expect(raw.stdout).not.toContain("tool result: ok");
    } finally {
      await store.close();
      await controller.stop();
    }
  }, 60_000);
});
