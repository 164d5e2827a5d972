import { resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { createEngine } from "../../src/engines/create-engine.js";
import { engineConfig, progressOf, runEngine, sampleTicket } from "./helpers/run-engine.js";

const DEMO_AGENT = resolve(import.meta.dirname, "../../demo/agent.mjs");
const demo = createEngine(engineConfig("command", { name: "demo", command: [DEMO_AGENT] }));
const fast = { DEMO_AGENT_DELAY_MS: "0" };

describe("demo agent", () => {
  test("reports its steps and writes a plausible result with a pull request on the ticket's repository", async () => {
    const run = await runEngine(demo, {
      ticket: sampleTicket({ repoUrl: "https://github.com/acme/widgets.git" }),
      env: fast,
    });
    expect(run.result).toMatchObject({ success: true, failureReason: "" });
    expect(run.result.pullRequestUrl).toMatch(/^https:\/\/github\.com\/acme\/widgets\/pull\/\d{3}$/);
    expect(run.result.summary).toContain("Parser crashes on empty input");
    expect(run.result.costUsd).toBeGreaterThan(0);
    expect(run.result.tokenUsage?.inputTokens).toBeGreaterThan(run.result.tokenUsage?.cachedInputTokens ?? 0);
    expect(progressOf(run.events)).toEqual([
      "status: cloning https://github.com/acme/widgets",
      "status: reading the code around the problem",
      "status: making the change: Parser crashes on empty input",
      "status: running the tests (all green)",
      "status: opening a pull request",
    ]);
    const costs = run.events.flatMap((e) => (e.kind === "cost" ? [e.usd] : []));
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
  });

  test("the same ticket gets the same pull request number", async () => {
    const [a, b] = await Promise.all([runEngine(demo, { env: fast }), runEngine(demo, { env: fast })]);
    expect(a.result.pullRequestUrl).toBe(b.result.pullRequestUrl);
  });

  test("a ticket without a repository fails with a reason", async () => {
    const run = await runEngine(demo, { ticket: sampleTicket({ repoUrl: "" }), env: fast });
    expect(run.result).toMatchObject({
      success: false,
      failureReason: "the ticket names no repository (repo_url is empty), so there is nothing to change",
    });
  });
});
