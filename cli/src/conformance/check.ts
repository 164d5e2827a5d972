import type { ConformanceConfig } from "./config.js";
import type { PluginTarget } from "./plugin-target.js";

/** What a failed check tells the user: expected, what happened, how to fix it. */
export interface FailureDetail {
  expected: string;
  actual: string;
  fix: string;
}

/** Thrown by a check to fail with an actionable explanation. */
export class CheckFailure extends Error {
  override readonly name = "CheckFailure";
  readonly detail: FailureDetail;

  constructor(detail: FailureDetail) {
    super(detail.actual);
    this.detail = detail;
  }
}

/** Thrown by a check that cannot apply to this plugin (no sink config, no declared rate). */
export class CheckSkipped extends Error {
  override readonly name = "CheckSkipped";
}

/** Everything a check needs about the run. */
export interface CheckEnvironment {
  target: PluginTarget;
  conformance: ConformanceConfig | undefined;
  startTimeoutMs: number;
  /** What the plugin said about itself in a successful Handshake, filled in by the first check that saw one. */
  observed?: { name?: string; version?: string };
}

/** One conformance check. Ids are stable; reports and `--only` use them. */
export interface CheckDefinition {
  id: string;
  title: string;
  /** Runs the check; throws CheckFailure or CheckSkipped. Cleanup goes to `defer`. */
  run(env: CheckEnvironment, defer: (cleanup: () => unknown) => void): Promise<void>;
}

/** The outcome of one check. */
export interface CheckResult {
  id: string;
  title: string;
  status: "passed" | "failed" | "skipped";
  durationMs: number;
  expected?: string;
  actual?: string;
  fix?: string;
  reason?: string;
  /** The plugin's last stderr lines, when they explain a failure. */
  stderr?: string;
}

/** The group of a check id: `notify.basic` → `notify`. */
export function groupOf(id: string): string {
  return id.split(".")[0] ?? id;
}
