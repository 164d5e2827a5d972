import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@errand/channel-sdk";
import { createLogger } from "@errand/channel-sdk/host";
import { tempDir } from "../../../test/support/temp-dir.js";
import type { ControllerConfig } from "../../src/config/controller-config.js";
import { loadControllerConfig } from "../../src/config/load-controller-config.js";
import { type Controller, createController } from "../../src/controller.js";
import { isZombie } from "../../src/execution/local/proc-stat.js";
import { isTerminal, type TaskRun } from "../../src/runs/task-run.js";
import { resolveSecrets } from "../../src/secrets/resolve-secrets.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../src/store/store.js";
import { hmacHex } from "../helpers/sign.js";

export const FIXTURES = resolve(import.meta.dirname, "../fixtures/loop");
export const WEBHOOK_SECRET = "e2e-signing-secret";
export const SECRET_ENV = { ERRAND_SECRET_E2E_WEBHOOK: WEBHOOK_SECRET };

/** A temporary installation: a config file, its store, workspaces, logs and the fixtures' side files. */
export interface Harness {
  dir: string;
  configFile: string;
  /** Lines the fixture engines append: one run id per execution. */
  executions(): string[];
  pidDir: string;
  /** Opens a second connection to the store (close it after). */
  openStore(): Promise<Store>;
}

/** Options of {@link createHarness}. */
export interface HarnessOptions {
  /** Fixture script of the default engine (a file in fixtures/loop), or a whole command. */
  engine: string | string[];
  /** YAML of the guardrails section's keys, indented by two spaces. */
  guardrails?: string;
  /** More top-level YAML. */
  extra?: string;
}

/** Writes a config for the fixtures; every path in a fresh temporary folder. */
export function createHarness(options: HarnessOptions): Harness {
  const dir = tempDir("errand-e2e-");
  const pidDir = join(dir, "pids");
  mkdirSync(pidDir);
  const command = Array.isArray(options.engine) ? options.engine : [join(FIXTURES, options.engine)];
  const configFile = join(dir, "errand.yaml");
  writeFileSync(
    configFile,
    `webhook:
  host: 127.0.0.1
  port: 0
  generic:
    auth_mode: hmac
    secret: { secret: e2e-webhook }
engines:
  default: fixture
  fixture:
    kind: command
    command: ${JSON.stringify(command)}
    env:
      EXEC_LOG: ${join(dir, "exec.log")}
      PID_DIR: ${pidDir}
guardrails:
  max_concurrent_jobs: 2
${options.guardrails ?? ""}
store:
  path: ${join(dir, "errand.db")}
execution:
  local:
    workspace_dir: ${join(dir, "ws")}
    log_dir: ${join(dir, "logs")}
    kill_grace_ms: 500
ops:
  host: 127.0.0.1
  port: 0
  shutdown_grace_seconds: 2
${options.extra ?? ""}`,
  );
  return {
    dir,
    configFile,
    pidDir,
    executions() {
      try {
        return readFileSync(join(dir, "exec.log"), "utf8").split("\n").filter(Boolean);
      } catch {
        return [];
      }
    },
    openStore: () => createSqliteStore({ path: join(dir, "errand.db") }),
  };
}

/** A controller started in this process, with its log lines kept. */
export interface InProcess {
  controller: Controller;
  webhookPort: number;
  logs: string[];
  stop(): Promise<void>;
}

/** Loads the harness config (optionally edited) and starts a controller in-process. */
export async function startInProcess(
  h: Harness,
  edit?: (config: ControllerConfig) => void,
  env: Record<string, string> = {},
): Promise<InProcess> {
  const allEnv = { ...SECRET_ENV, ...env };
  const { config } = await loadControllerConfig(h.configFile, { env: allEnv });
  edit?.(config);
  const secrets = resolveSecrets(config, { env: allEnv });
  const logs: string[] = [];
  const logger: Logger = createLogger({
    level: "debug",
    write: (line) => logs.push(line),
    secrets: Object.values(secrets),
  });
  const controller = await createController({ config, secrets, logger });
  await controller.start();
  const source = controller.sources[0] as { server?: { address?: { port: number } } };
  const webhookPort = source.server?.address?.port ?? 0;
  return { controller, webhookPort, logs, stop: () => controller.stop() };
}

let counter = 0;
/** A generic ticket body with a fresh id (or the given one). */
export function ticketBody(fields: Record<string, unknown> = {}): { id: string; body: string } {
  const id = (fields.id as string | undefined) ?? `T-${process.pid}-${++counter}-${Date.now()}`;
  return {
    id,
    body: JSON.stringify({
      id,
      title: `Ticket ${id}`,
      description: "Make the tests pass.",
      repo_url: "https://github.com/acme/shop",
      ...fields,
    }),
  };
}

/** POSTs a signed generic ticket; returns the status and body. */
export async function postTicket(
  port: number,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const response = await fetch(`http://127.0.0.1:${port}/webhooks/generic`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-webhook-signature": `sha256=${hmacHex(WEBHOOK_SECRET, body)}`,
      ...headers,
    },
    body,
  });
  return { status: response.status, text: await response.text() };
}

/** Polls until `check` returns a value, or fails after `ms` with `what`. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** The runs of a generic ticket, oldest attempt first. */
export async function runsOf(store: Store, id: string): Promise<TaskRun[]> {
  return (await store.listRuns({ ticket: { source: "generic", id }, limit: 100 })).sort(
    (a, b) => a.attempt - b.attempt,
  );
}

/** Waits until the ticket's latest run is in a final state. */
export function finished(store: Store, id: string, ms?: number): Promise<TaskRun> {
  return eventually(
    `a final state of ${id}`,
    async () => {
      const runs = await runsOf(store, id);
      const last = runs.at(-1);
      return last !== undefined && isTerminal(last.state) ? last : undefined;
    },
    ms,
  );
}

/** Waits until the ticket's run is Running. */
export function running(store: Store, id: string): Promise<TaskRun> {
  // Running is recorded before the engine starts; its engine is recorded (the attachment) once it exists.
  return eventually(`${id} to run`, async () =>
    (await runsOf(store, id)).find((r) => r.state === "Running" && r.attachment !== undefined),
  );
}

/**
 * True while a process with this pid exists and has not exited: a zombie (dead, its parent has not reaped it yet;
 * an engine's orphans are reaped by pid 1, late on a loaded machine) answers signal 0 but runs nothing.
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !isZombie(pid);
}
