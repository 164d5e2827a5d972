import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ControllerConfig, EngineConfig } from "../../src/config/controller-config.js";
import type { TaskRun } from "../../src/runs/task-run.js";
import { createHarness, finished, type InProcess, postTicket, startInProcess, ticketBody } from "./harness.js";

// The cost rule of docs/operators-guide.md, "Guardrails", run through the loop with each preset's fake CLI.
const FAKES = resolve(import.meta.dirname, "../fixtures/engines");
const LIMIT = "  max_cost_per_job: 1.00";

const started: InProcess[] = [];
afterEach(async () => {
  for (const c of started.splice(0)) await c.stop();
});

/** Runs one ticket on the preset's fake, replaying `scenario`, under a $1.00 cost limit; returns the ended run and the fake's argv. */
async function runPreset(
  kind: Exclude<EngineConfig["kind"], "command">,
  scenario: string,
): Promise<{ run: TaskRun; argv: string[] }> {
  const h = createHarness({ engine: "ok.sh", guardrails: LIMIT });
  const record = join(h.dir, "record.json");
  const usePreset = (config: ControllerConfig) => {
    const fixture = config.engines.byName.fixture as EngineConfig;
    config.engines.byName.fixture = {
      ...fixture,
      kind,
      command: [join(FAKES, kind === "claude_code" ? "claude" : kind)],
      env: { FAKE_CLI_RECORD: record },
    };
  };
  const c = await startInProcess(h, usePreset);
  started.push(c);
  const { id, body } = ticketBody({ description: `Make the tests pass. [fake:${scenario}]` });
  await postTicket(c.webhookPort, body);
  const run = await finished(c.controller.store, id);
  return { run, argv: (JSON.parse(readFileSync(record, "utf8")) as { argv: string[] }).argv };
}

describe("the cost limit, the same rule for every preset", () => {
  it("claude_code gets the limit as --max-budget-usd; stopping itself there fails the run for the cost limit", async () => {
    const { run, argv } = await runPreset("claude_code", "budget");
    expect(argv.slice(argv.indexOf("--max-budget-usd"), argv.indexOf("--max-budget-usd") + 2)).toEqual([
      "--max-budget-usd",
      "1",
    ]);
    expect(run.state).toBe("Failed");
    expect(run.reason).toBe(
      "cost limit: claude stopped itself at its budget of $1.00 (guardrails.max_cost_per_job) after spending $0.52 (error_max_budget_usd)",
    );
  });

  it("claude_code: a success whose final cost is over the limit is not stopped and stays Succeeded", async () => {
    const { run } = await runPreset("claude_code", "expensive");
    expect(run.state).toBe("Succeeded");
    expect(run.reason).toBe(
      "succeeded: https://github.com/acme/widgets/pull/42; over the cost limit: cost $4.50 passed guardrails.max_cost_per_job ($1.00)",
    );
    expect(run.result).toMatchObject({ success: true, costUsd: 4.5 });
  });

  it("opencode: a step's cost over the limit stops the run, Failed for the cost limit", async () => {
    const { run } = await runPreset("opencode", "expensive");
    expect(run.state).toBe("Failed");
    expect(run.reason).toBe("cost limit: stopped, cost $2.51 passed guardrails.max_cost_per_job ($1.00)");
  });

  it("opencode: the same when the over-limit step is its last and it exits at once", async () => {
    const { run } = await runPreset("opencode", "expensive_last_step");
    expect(run.state).toBe("Failed");
    expect(run.reason).toBe("cost limit: stopped, cost $2.51 passed guardrails.max_cost_per_job ($1.00)");
  });

  it("aider: a Cost line over the limit stops the run, Failed for the cost limit", async () => {
    const { run } = await runPreset("aider", "expensive");
    expect(run.state).toBe("Failed");
    expect(run.reason).toBe("cost limit: stopped, cost $2.50 passed guardrails.max_cost_per_job ($1.00)");
  });

  it.each(["codex", "gemini"] as const)(
    "%s reports no cost: the limit cannot act and the run ends on its own",
    async (kind) => {
      const { run } = await runPreset(kind, "success");
      expect(run.state).toBe("Succeeded");
      expect(run.reason).not.toContain("cost limit");
      expect(run.result?.costUsd).toBeUndefined();
    },
  );
});
