import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { RUN_STATES, type RunState } from "../runs/task-run.js";
import type { Store } from "../store/store.js";

/** The loop's Prometheus metrics (docs/operators-guide.md, "Metrics"). */
export interface LoopMetrics {
  finished(state: RunState, seconds: number): void;
  started(): void;
  /** Time from a ticket's acceptance to its Running transition. */
  startLatency(seconds: number): void;
}

/** Registers the loop's metrics; run counts and queue depth are read from the store at scrape time. */
export function createLoopMetrics(registry: Registry, store: Store, active: () => number): LoopMetrics {
  new Gauge({
    name: "errand_runs",
    help: "TaskRuns in the store, by state",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      const counts = await store.countRuns();
      for (const state of RUN_STATES) this.set({ state }, counts[state] ?? 0);
    },
  });
  new Gauge({
    name: "errand_queue_depth",
    help: "Queued TaskRuns waiting for a slot",
    registers: [registry],
    async collect() {
      this.set((await store.countRuns()).Queued ?? 0);
    },
  });
  new Gauge({
    name: "errand_runs_active",
    help: "Runs this controller is executing now",
    registers: [registry],
    collect() {
      this.set(active());
    },
  });
  const duration = new Histogram({
    name: "errand_run_duration_seconds",
    help: "Duration of runs from Running to their end, by final state",
    labelNames: ["state"],
    buckets: [1, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200],
    registers: [registry],
  });
  const started = new Counter({
    name: "errand_runs_started_total",
    help: "Runs that became Running",
    registers: [registry],
  });
  const latency = new Histogram({
    name: "errand_run_start_latency_seconds",
    help: "Time from a run's creation (its ticket stored) to Running",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 120],
    registers: [registry],
  });
  return {
    finished: (state, seconds) => duration.observe({ state }, seconds),
    started: () => started.inc(),
    startLatency: (seconds) => latency.observe(seconds),
  };
}
