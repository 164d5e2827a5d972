import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TaskResult, Ticket } from "@errand/channel-sdk";
import type { Registry } from "prom-client";
import { tempDir as makeTempDir } from "../../../../test/support/temp-dir.js";
import type { ChannelEntryConfig } from "../../../src/config/controller-config.js";
import type { RunEvent } from "../../../src/runs/run-event.js";
import type { TaskRun } from "../../../src/runs/task-run.js";
import { runningTaskRun } from "../../helpers/task-run.js";

/** The test plugin served with the SDK (see its header for its behaviours). */
export const TEST_CHANNEL = fileURLToPath(new URL("../fixtures/test-channel.mjs", import.meta.url));
/** A plugins.dir with unpacked packages: team-alerts (team_alerts), future-channel (future, v2 only), misnamed. */
export const PLUGINS_DIR = fileURLToPath(new URL("../fixtures/plugins", import.meta.url));

/** A resolved `notifications.channels[]` entry, as the config loader makes it. */
export function entry(index: number, fields: Partial<ChannelEntryConfig> & { backend: string }): ChannelEntryConfig {
  return { label: fields.backend, command: undefined, config: {}, secretNames: [], index, ...fields };
}

/** An entry that runs the test plugin as `command`, recording into `record`. */
export function testChannelEntry(
  index: number,
  record: string,
  fields: Partial<ChannelEntryConfig> = {},
): ChannelEntryConfig {
  return entry(index, {
    backend: "test_channel",
    command: [process.execPath, TEST_CHANNEL],
    ...fields,
    config: { record, ...fields.config },
  });
}

/** A fresh temporary folder, removed after the test file. */
export function tempDir(prefix = "errand-notify-"): string {
  return makeTempDir(prefix);
}

/** A file plugins append JSON lines to, and a reader for it. */
export function recordFile(): { path: string; entries: () => Record<string, unknown>[] } {
  const path = join(tempDir(), "calls.jsonl");
  const entries = () =>
    existsSync(path)
      ? readFileSync(path, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>)
      : [];
  return { path, entries };
}

export const TICKET: Ticket = {
  id: "42",
  title: "Fix the flaky login test",
  description: "It fails one run in ten.",
  ticketType: "issue",
  repoUrl: "https://codehost.example/acme/app",
  externalUrl: "https://codehost.example/acme/app/issues/42",
  labels: ["agent"],
  source: "codehost_a",
};

export const RESULT: TaskResult = {
  success: true,
  summary: "Made the test wait for the session cookie.",
  pullRequestUrl: "https://codehost.example/acme/app/pull/7",
  failureReason: "",
  costUsd: 0.42,
  durationMs: 61_000,
};

/** A Running TaskRun for {@link TICKET}. */
export function taskRun(id = "run_01"): TaskRun {
  return runningTaskRun({ id, ticket: { source: "codehost_a", id: TICKET.id }, engine: "claude-code" });
}

/** The three kinds of event of one run. */
export const events = {
  started: (run = taskRun()): RunEvent => ({ type: "started", run, ticket: TICKET, engine: "claude-code" }),
  progress: (message: string, run = taskRun()): RunEvent => ({ type: "progress", run, ticket: TICKET, message }),
  finished: (run = taskRun(), result = RESULT): RunEvent => ({
    type: "finished",
    run: { ...run, state: "Succeeded" },
    ticket: TICKET,
    result,
  }),
};

/** A signal that never aborts, as the loop passes when it does not cancel. */
export const NEVER = new AbortController().signal;

/** The value of a metric for the given labels (0 when never set). */
export async function metricValue(registry: Registry, name: string, labels: Record<string, string>): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  const match = values.find((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want));
  return match?.value ?? 0;
}
