import { describe, expect, it, vi } from "vitest";
import { pollDryRun } from "../../../src/cli/commands/tickets-action.js";
import { SECRET_ENV } from "../../controller/harness.js";
import { changesOnce, finishedRun, harnessFor, startController } from "./controller-setup.js";
import { fake } from "./setup.js";

describe("errand tickets poll --dry-run with code host A", () => {
  it("shows what the next poll would pick up and why each other issue is skipped, changing nothing", async () => {
    const f = await fake();
    const done = f.repo.add({ title: "Already done", labels: ["agent"] });
    const h = harnessFor(f, "ok.sh");
    const c = await startController(h, f);
    const run = await finishedRun(c.controller.store, done.number);
    await changesOnce(f, done.number, 3);
    await c.stop();
    const fresh = f.repo.add({ title: "Fresh", labels: ["agent"] });
    const excluded = f.repo.add({ title: "Excluded", labels: ["agent", "wontfix"] });
    const pull = f.repo.add({ title: "A pull request", labels: ["agent"], isPullRequest: true });
    const changes = f.repo.changes.length;

    vi.stubEnv("ERRAND_SECRET_CODEHOST_A_TOKEN", f.token);
    for (const [name, value] of Object.entries(SECRET_ENV)) vi.stubEnv(name, value);
    let out = "";
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    try {
      expect(await pollDryRun({ config: h.configFile, json: true, dryRun: true })).toBe(0);
    } finally {
      write.mockRestore();
      vi.unstubAllEnvs();
    }
    const decisions = (JSON.parse(out) as Array<{ ticket: { id: string }; decision: string; reason: string }>).map(
      (d) => [d.ticket.id, d.decision, d.reason],
    );
    expect(decisions).toEqual([
      [String(pull.number), "skip", "a pull request, not an issue (the issues API lists both)"],
      [String(excluded.number), "skip", 'carries the excluded label "wontfix" (ticketing.config.exclude_labels)'],
      [String(fresh.number), "pick_up", "matches the rules and has no run yet"],
      [String(done.number), "skip", `already run (${run.id}, Succeeded); errand runs retry ${run.id} starts it again`],
    ]);
    expect(f.repo.changes).toHaveLength(changes);
  });
});
