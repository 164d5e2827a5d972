import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import type { Logger, Ticket } from "@errand/channel-sdk";
import { afterEach } from "vitest";
import type { ExecutionConfig } from "../../../src/config/controller-config.js";
import type { Engine, EngineEvent } from "../../../src/engines/engine.js";
import type { ExecutionBackend, RunHooks, RunSpec } from "../../../src/execution/execution-backend.js";
import { createLocalBackend } from "../../../src/execution/local-backend.js";
import type { TaskRun } from "../../../src/runs/task-run.js";
import { newRunId } from "../../../src/store/run-id.js";
import { runningTaskRun } from "../../helpers/task-run.js";

/** Absolute path of a file in test/execution/fixtures. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
}

/** A logger that keeps its records, for assertions on warnings. */
export function recordingLogger(
  records: Array<{ level: string; message: string; fields: Record<string, unknown> }> = [],
): Logger & { records: typeof records } {
  const make = (base: Record<string, unknown>): Logger & { records: typeof records } => {
    const log =
      (level: string) =>
      (message: string, fields: Record<string, unknown> = {}) =>
        void records.push({ level, message, fields: { ...base, ...fields } });
    return {
      debug: log("debug"),
      info: log("info"),
      warn: log("warn"),
      error: log("error"),
      child: (fields) => make({ ...base, ...fields }),
      records,
    };
  };
  return make({});
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs `cleanup` after the current test. */
export function onCleanup(cleanup: () => Promise<void> | void): void {
  cleanups.push(cleanup);
}

/** Polls `condition` every 10 ms; throws naming `what` after 10 s. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A temporary folder removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "errand-exec-"));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A backend on fresh folders; closed after the test. */
export function localBackend(overrides: Partial<ExecutionConfig["local"]> = {}): {
  backend: ExecutionBackend;
  config: ExecutionConfig["local"];
  logger: ReturnType<typeof recordingLogger>;
} {
  const root = tempDir();
  const config: ExecutionConfig["local"] = {
    workspaceDir: join(root, "workspaces"),
    logDir: join(root, "logs"),
    logMaxBytes: 1024 * 1024,
    killGraceMs: 300,
    keepWorkspaces: "on_failure",
    ...overrides,
  };
  const logger = recordingLogger();
  const backend = createLocalBackend({ config, logger });
  onCleanup(() => backend.close());
  return { backend, config, logger };
}

/** A ticket as the webhook intake makes them. */
export const TICKET: Ticket = {
  id: "42",
  title: "Fix the login page",
  description: "It crashes on submit.",
  ticketType: "bug_fix",
  repoUrl: "https://codehost.example/acme/web",
  externalUrl: "https://tracker.example/acme/42",
  labels: ["bug", "agent"],
  source: "generic",
  rawEvent: { action: "opened" },
};

/** A Running TaskRun for `engine`. */
export function runningRun(engine: string, overrides: Partial<TaskRun> = {}): TaskRun {
  return runningTaskRun({ id: newRunId(), ticket: { source: TICKET.source, id: TICKET.id }, engine, ...overrides });
}

/** A spec for `engine`, with a fresh run. */
export function specFor(engine: Engine, apiKey?: string): RunSpec {
  return { run: runningRun(engine.name), ticket: TICKET, engine, prompt: "Fix the login page.\n", apiKey };
}

/** Hooks that record events and can wait for a progress line. */
export function recordingHooks(): RunHooks & { events: EngineEvent[]; progress(text: string): Promise<void> } {
  const events: EngineEvent[] = [];
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  return {
    events,
    onEvent(event) {
      events.push(event);
      if (event.kind !== "progress") return;
      for (const waiter of waiters.filter((w) => w.text === event.text)) waiter.resolve();
    },
    progress(text) {
      if (events.some((e) => e.kind === "progress" && e.text === text)) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ text, resolve }));
    },
  };
}

/** True when process `pid` no longer runs (gone, or a zombie nobody reaped yet). */
export function isDead(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** SIGKILL to each pid (negative: a group), ignoring those already gone. */
export function killQuietly(...pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone: that is what we want.
    }
  }
}
