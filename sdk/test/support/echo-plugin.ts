import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../../../test/support/temp-dir.js";
import { type ConnectOptions, connectChannel, silentLogger, type Ticket } from "./internals.js";
import { type LaunchOptions, launchPlugin } from "./protocol-internals.js";

/** Path of the well-behaved fixture plugin (see its header for the title-driven behaviours). */
export const ECHO_PLUGIN = fileURLToPath(new URL("../fixtures/plugins/echo.mjs", import.meta.url));

/** A file the echo plugin appends one JSON line per handled call to. */
export function recordFile(): { path: string; entries: () => Record<string, unknown>[] } {
  const path = join(tempDir("errand-echo-"), "calls.jsonl");
  return {
    path,
    entries: () =>
      existsSync(path)
        ? readFileSync(path, "utf8")
            .trim()
            .split("\n")
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Record<string, unknown>)
        : [],
  };
}

/** Connects to the echo plugin as a real process. */
export function connectEcho(options: Partial<ConnectOptions> = {}) {
  return connectChannel({
    command: process.execPath,
    args: [ECHO_PLUGIN],
    logger: silentLogger,
    ...options,
  });
}

/** Launches the echo plugin at the protocol level (no health check, no Handshake); `extra` overrides any option. */
export function launchEcho(extra: Partial<LaunchOptions> = {}) {
  return launchPlugin({
    command: process.execPath,
    args: [ECHO_PLUGIN],
    startTimeoutMs: 10_000,
    supportedVersions: [1],
    transport: "unix",
    logger: silentLogger,
    ...extra,
  });
}

export function ticket(title: string, extra: Partial<Ticket> = {}): Ticket {
  return {
    id: "42",
    title,
    description: "",
    ticketType: "issue",
    repoUrl: "https://codehost.example/acme/app",
    externalUrl: "https://codehost.example/acme/app/issues/42",
    labels: ["agent"],
    source: "codehost_a",
    ...extra,
  };
}

/** Resolves when `pid` no longer exists, or rejects after `timeoutMs`. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return Date.now() - started;
    }
    if (Date.now() - started > timeoutMs) throw new Error(`process ${pid} still alive after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
