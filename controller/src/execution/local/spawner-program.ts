import type { ChildProcess } from "node:child_process";
import type { SpawnerReply, SpawnerRequest } from "./spawner-messages.js";

/**
 * The engine spawner's program. It runs as `node -e` with this function's
 * own text (see {@link SPAWNER_SOURCE}), so it needs no file beside the
 * compiled ones, no TypeScript loader under tests, and no bundle entry; it
 * is still type-checked and linted like the rest. It must therefore refer
 * to nothing outside its own body: every module comes from `require`.
 *
 * Why a process of its own: node:child_process forks the parent (libuv
 * clones without CLONE_VM) and blocks the parent's event loop until the
 * child has exec'd; both cost in proportion to the parent's memory. This
 * process stays a few tens of MB, so spawning from it is cheap and never
 * stalls the controller. It does nothing but spawn and report: the engine
 * leads a process group of its own (`detached`), which the controller
 * signals directly; output chunks, stream ends and the exit status come
 * back as IPC messages ({@link SpawnerReply}), in order.
 *
 * It also removes the workspaces of finished runs that hold more than
 * the controller's own files (an agent's checkout), so that walking a
 * large tree never stalls the controller's event loop (with the system's
 * `rm -rf`); the controller only waits for the answer when it shuts down.
 * It exits when the controller's channel closes (the controller ended),
 * once the removals it was given are done.
 */
export function spawnerProgram(): void {
  const { spawn } = require("node:child_process") as typeof import("node:child_process");
  // Named in ps and /proc/<pid>/comm (the controller bench finds it by this name).
  process.title = "errand-spawner";
  const running = new Map<number, ChildProcess>();
  const send = (message: SpawnerReply): void => {
    if (process.connected) process.send?.(message);
  };
  const describe = (error: unknown): { code: string | undefined; message: string } => {
    const e = error as { code?: unknown; message?: unknown } | undefined;
    return { code: typeof e?.code === "string" ? e.code : undefined, message: String(e?.message) };
  };
  const start = (m: Extract<SpawnerRequest, { op: "spawn" }>): void => {
    const { id } = m;
    let child: ChildProcess;
    try {
      child = spawn(m.command, m.args, {
        cwd: m.cwd,
        env: m.env,
        detached: true,
        stdio: [m.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      });
    } catch (error) {
      send({ op: "failed", id, ...describe(error) });
      return;
    }
    if (child.pid === undefined) {
      child.once("error", (error) => send({ op: "failed", id, ...describe(error) }));
      return;
    }
    send({ op: "spawned", id, pid: child.pid });
    running.set(id, child);
    if (m.stdin !== undefined && child.stdin !== null) {
      // An engine that exits without reading its input closes the pipe: not an error of ours.
      child.stdin.on("error", () => {});
      child.stdin.end(m.stdin);
    }
    for (const stream of ["stdout", "stderr"] as const) {
      const pipe = child[stream];
      if (pipe === null) continue;
      pipe.on("data", (chunk: Buffer) => send({ op: "data", id, stream, chunk }));
      pipe.on("error", () => {});
      pipe.once("close", () => send({ op: "end", id, stream }));
    }
    child.once("exit", (code, signal) => send({ op: "exit", id, code, signal }));
    child.once("close", () => running.delete(id));
  };
  let removing = 0;
  let disconnected = false;
  // The system's rm walks a tree in constant memory; fs.rm starts on every entry of a folder at once, which
  // ran this small heap out of memory at 40,000 files (a checkout with node_modules has more).
  const remove = (m: Extract<SpawnerRequest, { op: "remove" }>): void => {
    removing += 1;
    let stderr = "";
    let settled = false;
    const done = (error: string | undefined): void => {
      if (settled) return;
      settled = true;
      send(error === undefined ? { op: "removed", id: m.id } : { op: "removed", id: m.id, error });
      removing -= 1;
      if (disconnected && removing === 0) process.exit(0);
    };
    let rm: ChildProcess;
    try {
      rm = spawn("rm", ["-rf", "--", ...m.paths], { stdio: ["ignore", "ignore", "pipe"] });
    } catch (error) {
      done(describe(error).message);
      return;
    }
    rm.stderr?.setEncoding("utf8");
    rm.stderr?.on("data", (text: string) => {
      if (stderr.length < 2000) stderr += text;
    });
    rm.once("error", (error) => done(`rm could not be run: ${describe(error).message}`));
    rm.once("close", (code, signal) => {
      if (code === 0) done(undefined);
      else if (code !== null) done(stderr.trim().split("\n")[0] || `rm exited with code ${code}`);
      else done(`rm was killed by ${signal}`);
    });
  };
  process.on("message", (m: SpawnerRequest) => {
    if (m.op === "spawn") start(m);
    else if (m.op === "remove") remove(m);
    else if (m.op === "close-output") {
      const child = running.get(m.id);
      child?.stdout?.destroy();
      child?.stderr?.destroy();
    }
  });
  process.on("disconnect", () => {
    disconnected = true;
    if (removing === 0) process.exit(0);
  });
}

/** The spawner's program as a script for `node -e`: the function's compiled text, called at once. */
export const SPAWNER_SOURCE = `"use strict";(${spawnerProgram.toString()})();`;
