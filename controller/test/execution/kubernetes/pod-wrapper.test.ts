import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_RESULT_BYTES, wrapperCommand } from "../../../src/execution/kubernetes/pod-wrapper.js";
import { readTerminationMessage } from "../../../src/execution/kubernetes/termination-message.js";
import { tempDir } from "../helpers/local-setup.js";

const SHELLS = ["/bin/sh", "/usr/bin/dash", "/usr/bin/bash", "/bin/busybox"].filter((s) => existsSync(s));

/** Runs the container's command as the pod would, with `shell` as /bin/sh; the engine is a shell script. */
function runWrapper(shell: string, engine: string, options: { stdin?: string; onStart?: (pid: number) => void } = {}) {
  const dir = tempDir();
  const files = {
    stdin: undefined as string | undefined,
    message: join(dir, "termination-log"),
    result: join(dir, "result.json"),
  };
  if (options.stdin !== undefined) {
    files.stdin = join(dir, "stdin");
    writeFileSync(files.stdin, options.stdin);
  }
  const [, flag, script, name, ...rest] = wrapperCommand(files, "/bin/sh", ["-c", engine]);
  const args = shell.endsWith("busybox")
    ? ["sh", flag as string, script as string, name as string, ...rest]
    : [flag as string, script as string, name as string, ...rest];
  const child = spawn(shell, args, {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", RESULT: files.result },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString();
    if (out.includes("ready\n")) options.onStart?.(child.pid as number);
  });
  return new Promise<{ code: number | null; out: string; message: string | undefined }>((resolve) => {
    child.on("close", (code) =>
      resolve({ code, out, message: existsSync(files.message) ? readFileSync(files.message, "utf8") : undefined }),
    );
  });
}

describe.each(SHELLS)("the pod's wrapper under %s", (shell) => {
  it("writes the result file into the termination message and exits with the engine's code", async () => {
    const result = JSON.stringify({ success: false, failure_reason: 'it\'s "quoted" $HOME `x`' });
    const { code, out, message } = await runWrapper(
      shell,
      `echo working; printf '%s' '${result.replace(/'/g, "'\\''")}' > "$RESULT"; exit 3`,
    );
    expect(code).toBe(3);
    expect(out).toBe("working\n");
    expect(message).toBe(`errand-result v1\n${result}`);
    expect(readTerminationMessage(message)).toEqual({ kind: "result", text: result });
  });

  it("says when there is no result file", async () => {
    const { code, message } = await runWrapper(shell, "exit 0");
    expect(code).toBe(0);
    expect(readTerminationMessage(message)).toEqual({ kind: "none" });
  });

  it("reports a result file too large for the message by its size", async () => {
    const { message } = await runWrapper(shell, `head -c ${MAX_RESULT_BYTES + 1} /dev/zero | tr '\\0' x > "$RESULT"`);
    expect(readTerminationMessage(message)).toEqual({ kind: "too-large", bytes: MAX_RESULT_BYTES + 1 });
    const fits = await runWrapper(shell, `head -c ${MAX_RESULT_BYTES} /dev/zero | tr '\\0' x > "$RESULT"`);
    expect(Buffer.byteLength(fits.message ?? "")).toBe(4096);
  });

  it("gives the engine its stdin from the file", async () => {
    const { out } = await runWrapper(shell, "cat", { stdin: "the prompt\n" });
    expect(out).toBe("the prompt\n");
  });

  it("passes SIGTERM on to the engine and still writes the message", async () => {
    const engine = `trap 'echo '"'"'{"success":false,"failure_reason":"stopped"}'"'"' > "$RESULT"; exit 143' TERM; echo ready; while :; do sleep 0.05; done`;
    const { code, message } = await runWrapper(shell, engine, { onStart: (pid) => process.kill(pid, "SIGTERM") });
    expect(code).toBe(143);
    expect(readTerminationMessage(message)).toEqual({
      kind: "result",
      text: '{"success":false,"failure_reason":"stopped"}\n',
    });
  });
});

describe("termination messages", () => {
  it("tells the wrapper's from the runtime's and from a log tail", () => {
    expect(readTerminationMessage(undefined)).toEqual({ kind: "absent" });
    expect(readTerminationMessage("")).toEqual({ kind: "absent" });
    expect(readTerminationMessage("errand-result v1\n")).toEqual({ kind: "result", text: "" });
    expect(readTerminationMessage("errand-result too-large x\n")).toEqual({
      kind: "other",
      text: "errand-result too-large x",
    });
    expect(readTerminationMessage("panic: out of cheese\n  at main\n")).toEqual({
      kind: "other",
      text: "panic: out of cheese\n  at main",
    });
  });
});
