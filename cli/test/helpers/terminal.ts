import { spawn } from "node:child_process";
import { cliBin } from "./cli.js";

/** What a session on a terminal printed, and how it ended. */
export interface TerminalSession {
  screen: string;
  code: number | null;
  /** The prompts that were never shown (and so never answered). */
  unanswered: RegExp[];
}

const shellWord = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;

/**
 * Runs a built bin on a pseudo-terminal (util-linux `script`), as a person
 * at a terminal would, typing each answer once its prompt is on screen.
 * An answer ends with Enter; "\u0015" first clears what is typed.
 */
export function runInTerminal(
  name: "create-channel",
  args: string[],
  cwd: string,
  answers: Array<[RegExp, string]>,
): Promise<TerminalSession> {
  const command = [process.execPath, cliBin(name), ...args].map(shellWord).join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], { cwd, env: { ...process.env, FORCE_COLOR: "0" } });
  const pending = [...answers];
  let screen = "";
  let sinceAnswer = "";
  const onData = (chunk: Buffer) => {
    screen += chunk.toString();
    sinceAnswer += chunk.toString();
    const next = pending[0];
    if (next?.[0].test(sinceAnswer)) {
      pending.shift();
      sinceAnswer = "";
      child.stdin.write(`${next[1]}\r`);
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  return new Promise((resolve) =>
    child.once("close", (code) => resolve({ screen, code, unanswered: pending.map(([p]) => p) })),
  );
}
