import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/** A notification call, as metrics and logs name it. */
export type Operation = "notify" | "notify_start" | "notify_complete";

/** How a call ended: delivered, failed, cut off at the bound, or cancelled by shutdown. */
export type CallOutcome = "ok" | "error" | "timeout" | "cancelled";

/** The notifier's Prometheus instruments (names in docs/notifications.md). */
export interface NotifierMetrics {
  /** Records one finished call; failures (error, timeout) also count in `agent_plugin_errors_total`. */
  call(plugin: string, operation: Operation, outcome: CallOutcome, seconds: number): void;
  healthy(plugin: string, healthy: boolean): void;
  restarted(plugin: string): void;
  /** One health check of an unhealthy plugin channel: `ok` (SERVING) or `failed`. */
  probed(plugin: string, outcome: "ok" | "failed"): void;
}

/**
 * Registers the metrics in `registry`. `plugin` is the channel's label
 * (unique per entry), so two instances of one backend count apart.
 */
export function createNotifierMetrics(registry: Registry): NotifierMetrics {
  const registers = [registry];
  const errors = new Counter({
    name: "agent_plugin_errors_total",
    help: "Failed notification calls (errors and timeouts), by channel label.",
    labelNames: ["plugin"],
    registers,
  });
  const calls = new Counter({
    name: "agent_plugin_calls_total",
    help: "Notification calls, by channel label, operation and outcome.",
    labelNames: ["plugin", "operation", "outcome"],
    registers,
  });
  const duration = new Histogram({
    name: "agent_plugin_call_duration_seconds",
    help: "Time a notification call took, by channel label and operation.",
    labelNames: ["plugin", "operation"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const healthy = new Gauge({
    name: "agent_plugin_healthy",
    help: "1 while a channel is healthy, 0 after too many failures in a row.",
    labelNames: ["plugin"],
    registers,
  });
  const restarts = new Counter({
    name: "agent_plugin_restarts_total",
    help: "Plugin processes started again after a crash.",
    labelNames: ["plugin"],
    registers,
  });
  const probes = new Counter({
    name: "agent_plugin_probes_total",
    help: "Health checks of unhealthy plugin channels, by channel label and outcome (ok, failed).",
    labelNames: ["plugin", "outcome"],
    registers,
  });
  return {
    call(plugin, operation, outcome, seconds) {
      calls.labels(plugin, operation, outcome).inc();
      duration.labels(plugin, operation).observe(seconds);
      if (outcome === "error" || outcome === "timeout") errors.labels(plugin).inc();
    },
    healthy: (plugin, value) => healthy.labels(plugin).set(value ? 1 : 0),
    restarted: (plugin) => restarts.labels(plugin).inc(),
    probed: (plugin, outcome) => probes.labels(plugin, outcome).inc(),
  };
}
