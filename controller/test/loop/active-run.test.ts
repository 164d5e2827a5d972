import { silentLogger } from "@errand/channel-sdk/host";
import { describe, expect, it } from "vitest";
import type { Guardrails } from "../../src/guardrails/guardrails.js";
import { EventChain } from "../../src/loop/event-chain.js";
import type { LoopMetrics } from "../../src/loop/loop-metrics.js";
import { createActiveRun } from "../../src/loop/supervise-run.js";
import type { RunEvent } from "../../src/runs/run-event.js";
import type { Store } from "../../src/store/store.js";
import { TICKET, taskRun } from "../notify/helpers/fixtures.js";

const deps = {
  store: {} as Store,
  guardrails: {} as Guardrails,
  logger: silentLogger,
  metrics: {} as LoopMetrics,
  now: Date.now,
};

describe("a run's events", () => {
  it("tell channels it started before any progress its engine printed while the start was being recorded", async () => {
    const delivered: string[] = [];
    const chain = new EventChain({
      inTurn: async (event: RunEvent) => {
        delivered.push(event.type === "progress" ? `progress: ${event.message}` : event.type);
      },
    });
    const run = taskRun();
    const active = createActiveRun(run, TICKET, chain, deps);
    active.holdProgress();
    active.onEvent({ kind: "progress", text: "cloning", detail: "status" });
    active.onEvent({ kind: "progress", text: "reading the ticket", detail: "status" });
    active.announce({ type: "started", run, ticket: TICKET, engine: "fixture" });
    await chain.idle();
    // The latest progress held back follows the start; later progress goes on as usual.
    active.onEvent({ kind: "progress", text: "testing", detail: "status" });
    await chain.idle();
    expect(delivered).toEqual(["started", "progress: reading the ticket", "progress: testing"]);
  });
});

describe("a run's event chain", () => {
  it("hands each event at once to observers that order events themselves, while an in-turn observer is still busy, and nothing after finished", async () => {
    const eager: string[] = [];
    const inTurn: string[] = [];
    let release: () => void = () => {};
    const busy = new Promise<void>((resolve) => {
      release = resolve;
    });
    const name = (event: RunEvent) => (event.type === "progress" ? event.message : event.type);
    const chain = new EventChain({
      eager: async (event) => void eager.push(name(event)),
      inTurn: async (event) => {
        inTurn.push(name(event));
        // The first event holds this observer until released.
        if (inTurn.length === 1) await busy;
      },
    });
    const run = taskRun();
    chain.push({ type: "started", run, ticket: TICKET, engine: "fixture" });
    chain.progress({ type: "progress", run, ticket: TICKET, message: "one" });
    chain.progress({ type: "progress", run, ticket: TICKET, message: "two" });
    chain.push({
      type: "finished",
      run,
      ticket: TICKET,
      result: { success: true, summary: "", pullRequestUrl: "", failureReason: "" },
    });
    chain.progress({ type: "progress", run, ticket: TICKET, message: "after the end" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(eager).toEqual(["started", "one", "two", "finished"]);
    expect(inTurn).toEqual(["started"]);
    release();
    await chain.idle();
    // The in-turn observer gets them in order, with only the latest of the progress that waited.
    expect(inTurn).toEqual(["started", "two", "finished"]);
  });
});
