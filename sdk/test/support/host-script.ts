import { spawn } from "node:child_process";

/** The built SDK's host entry, as a separate host process imports it (run `npx tsc -b sdk` first). */
export const SDK_DIST = new URL("../../dist/host/index.js", import.meta.url).href;

/** What a host process run by {@link runHostScript} did. */
export interface HostRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from the line "MARK" on stdout to the process's exit; undefined without a mark. */
  exitAfterMarkMs: number | undefined;
}

/**
 * Runs `body` as an ES module in a fresh Node process with the built SDK
 * imported as `sdk`. A host bug that crashes or hangs a process shows here
 * as it would in production, outside the test runner's own handlers.
 */
export function runHostScript(body: string, timeoutMs = 15_000): Promise<HostRun> {
  const script = `const sdk = await import(${JSON.stringify(SDK_DIST)});\n${body}`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let markedAt: number | undefined;
    child.stdout.on("data", (d: Buffer) => {
      stdout += d;
      if (markedAt === undefined && /^MARK$/m.test(stdout)) markedAt = Date.now();
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`host script still running after ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, exitAfterMarkMs: markedAt === undefined ? undefined : Date.now() - markedAt });
    });
  });
}
