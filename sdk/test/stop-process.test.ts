import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { isProcessRunning, settlesWithin, stopProcess } from "../src/host/stop-process.js";

// A wrapper (as `npx`, a shell script) that ignores SIGTERM and starts a
// grandchild, then prints the grandchild's pid.
const WRAPPER = `
  process.on("SIGTERM", () => {});
  const { spawn } = require("node:child_process");
  const grandchild = spawn(process.execPath, ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: "ignore" });
  process.stdout.write(grandchild.pid + "\\n");
  setInterval(() => {}, 1000);
`;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, "SIGKILL");
});

async function startWrapper(
  detached: boolean,
): Promise<{ child: ChildProcess; exited: Promise<unknown>; grandchild: number }> {
  const child = spawn(process.execPath, ["-e", WRAPPER], { stdio: ["ignore", "pipe", "pipe"], detached });
  const exited = once(child, "exit");
  const [data] = (await once(child.stdout!, "data")) as [Buffer];
  const grandchild = Number(data.toString().trim());
  started.push(child.pid!, grandchild);
  return { child, exited, grandchild };
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
  return !alive(pid);
}

describe("stopProcess", () => {
  it("SIGTERM, then SIGKILL after the grace, and resolves once the process has exited", async () => {
    const { child, exited } = await startWrapper(false);
    await stopProcess(child, exited, 200);
    expect(isProcessRunning(child)).toBe(false);
    expect(child.signalCode).toBe("SIGKILL");
    expect(await settlesWithin(exited, 0)).toBe(true);
  });

  it("with group, stops what the process started too (a wrapper's children)", async () => {
    const { child, exited, grandchild } = await startWrapper(true);
    await stopProcess(child, exited, 200, { group: true });
    expect(child.signalCode).toBe("SIGKILL");
    expect(await gone(grandchild)).toBe(true);
  });
});
