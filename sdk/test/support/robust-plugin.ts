import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client, credentials, Metadata, type ServiceError } from "@grpc/grpc-js";
import { tempDir } from "../../../test/support/temp-dir.js";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "./internals.js";

/** The misbehaving fixture plugin (see its header for the message-driven behaviours). */
export const ROBUST_PLUGIN = fileURLToPath(new URL("../fixtures/plugins/robust.mjs", import.meta.url));
/** A --require script that records how a process ended (for plugins whose parent is another process). */
export const EXIT_MONITOR = fileURLToPath(new URL("../fixtures/exit-monitor.cjs", import.meta.url));

/** A fresh file for EXIT_MONITOR, and its events once written. */
export function monitorFile(): { path: string; events: () => Record<string, unknown>[] } {
  const path = join(tempDir("errand-monitor-"), "events.jsonl");
  return {
    path,
    events: () =>
      existsSync(path)
        ? readFileSync(path, "utf8")
            .split("\n")
            .filter(Boolean)
            .map((line) => JSON.parse(line) as Record<string, unknown>)
        : [],
  };
}

/**
 * Sends `body` as is to a NotificationChannel method: requests the generated
 * encoders would never produce (missing fields, integers beyond 2^53, garbage).
 */
export function rawUnary(
  target: string,
  method: string,
  body: Uint8Array,
  timeoutMs = 5000,
): Promise<{ error: ServiceError | null }> {
  const client = new Client(target, credentials.createInsecure());
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      `/errand.v1.NotificationChannel/${method}`,
      (value: Buffer) => value,
      (value: Buffer) => value,
      Buffer.from(body),
      new Metadata(),
      { deadline: Date.now() + timeoutMs },
      (error) => {
        client.close();
        resolve({ error });
      },
    );
  });
}

/** How a plugin started with `env` ended: its exit, or `started` once it printed a handshake line (then it is killed). */
export interface StartOutcome {
  code: number | null;
  started: boolean;
  stdout: string;
  stderr: string;
}

/** Starts `script` as a host would (cookie and versions set, `env` on top) and watches what it does. */
export function startPlugin(
  script: string,
  env: Record<string, string | undefined>,
  timeoutMs = 10_000,
): Promise<StartOutcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const outcome: StartOutcome = { code: null, started: false, stdout: "", stderr: "" };
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stdout.on("data", (data) => {
      outcome.stdout += String(data);
      if (outcome.stdout.includes("\n") && !outcome.started) {
        outcome.started = true;
        child.kill("SIGTERM");
      }
    });
    child.stderr.on("data", (data) => (outcome.stderr += String(data)));
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ ...outcome, code });
    });
  });
}
