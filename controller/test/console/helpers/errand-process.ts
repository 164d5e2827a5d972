import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../../../../test/support/temp-dir.js";

const BIN = resolve(import.meta.dirname, "../../../../node_modules/.bin/errand");
const TICKING = resolve(import.meta.dirname, "../../fixtures/console/ticking.sh");

/** A real `errand run` (the bin, as a process) with the console on its ops port and a slow command engine. */
export interface ErrandProcess {
  /** `http://127.0.0.1:<ops port>`. */
  base: string;
  /** Posts a generic ticket; a title holding "hold" keeps its run going until it is cancelled. */
  postTicket(fields: { id: string; title: string; repo_url?: string; description?: string }): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `errand run` in a fresh folder with `console.token_secret` set to `token` (when given) and the generic
 * webhook open, and waits for its ports. `guardrails` adds keys to that section (two spaces in). The engine prints a stream-json step every 200 ms, `ticks` of them.
 */
export async function startErrand(
  options: { token?: string; ticks?: number; guardrails?: string; extra?: string } = {},
): Promise<ErrandProcess> {
  const dir = tempDir("errand-console-e2e-");
  const file = join(dir, "errand.yaml");
  writeFileSync(
    file,
    `webhook:
  host: 127.0.0.1
  port: 0
  generic: { auth_mode: none }
engines:
  default: tick
  tick:
    kind: command
    command: [${JSON.stringify(TICKING)}]
    env: { TICKS: "${options.ticks ?? 5}" }
guardrails:
  max_concurrent_jobs: 4
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
${options.token === undefined ? "" : "console:\n  token_secret: console-token\n"}${options.extra ?? ""}`,
  );
  const env = {
    ...process.env,
    ...(options.token === undefined ? {} : { ERRAND_SECRET_CONSOLE_TOKEN: options.token }),
  };
  const child = spawn(BIN, ["run", "--config", file], { env, stdio: ["ignore", "pipe", "pipe"] });
  const { ops, webhook } = await ports(child);
  return {
    base: `http://127.0.0.1:${ops}`,
    async postTicket(fields) {
      const response = await fetch(`http://127.0.0.1:${webhook}/webhooks/generic`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ description: "Make it so.", repo_url: "https://codehost.example/acme/app", ...fields }),
      });
      if (response.status !== 200) throw new Error(`ticket refused: ${response.status} ${await response.text()}`);
    },
    stop: () => stopChild(child),
  };
}

/** Reads the controller's log lines until it said which ports its webhook and ops servers listen on. */
function ports(child: ChildProcess): Promise<{ ops: number; webhook: number }> {
  return new Promise((resolvePorts, reject) => {
    let ops: number | undefined;
    let webhook: number | undefined;
    let partial = "";
    const transcript: string[] = [];
    const timer = setTimeout(
      () => reject(new Error(`errand run did not start within 20 s:\n${transcript.join("\n")}`)),
      20_000,
    );
    const read = (chunk: Buffer) => {
      const lines = (partial + chunk.toString("utf8")).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        transcript.push(line);
        if (!line.startsWith("{")) continue;
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (entry["@message"] === "webhook server listening") webhook = entry.port as number;
        if (entry["@message"] === "controller started") ops = (entry.ops as { port: number }).port;
      }
      if (ops !== undefined && webhook !== undefined) {
        clearTimeout(timer);
        resolvePorts({ ops, webhook });
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code) => reject(new Error(`errand run exited with ${code}:\n${transcript.join("\n")}`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once("exit", () => done());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
  });
}
