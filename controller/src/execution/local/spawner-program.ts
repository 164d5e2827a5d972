import type { ChildProcess } from "node:child_process";
import type { SpawnerReply, SpawnerRequest } from "./spawner-messages.js";

/**
 * The engine spawner's program. It runs as `node -e` with the text of the
 * functions below (see {@link SPAWNER_SOURCE}), so it needs no file beside
 * the compiled ones, no TypeScript loader under tests, and no bundle entry;
 * it is still type-checked and linted like the rest. Each function must
 * therefore refer to nothing outside its own body but the other three
 * (by name) and globals: every module comes from `require`.
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
  // Named in ps and /proc/<pid>/comm (the controller bench finds it by this name).
  process.title = "errand-spawner";
  const running = new Map<number, ChildProcess>();
  const send = (message: SpawnerReply): void => {
    if (process.connected) process.send?.(message);
  };
  let removing = 0;
  let disconnected = false;
  const removed = (): void => {
    removing -= 1;
    if (disconnected && removing === 0) process.exit(0);
  };
  process.on("message", (m: SpawnerRequest) => {
    if (m.op === "spawn") spawnerStart(m, send, running);
    else if (m.op === "remove") {
      removing += 1;
      spawnerRemove(m, send, removed);
    } else if (m.op === "close-output") {
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

/** Starts one engine and reports it: spawned (or failed), its output in order, its stream ends and its exit. */
export function spawnerStart(
  m: Extract<SpawnerRequest, { op: "spawn" }>,
  send: (message: SpawnerReply) => void,
  running: Map<number, ChildProcess>,
): void {
  const { spawn } = require("node:child_process") as typeof import("node:child_process");
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
    send({ op: "failed", id, ...spawnerDescribe(error) });
    return;
  }
  if (child.pid === undefined) {
    child.once("error", (error) => send({ op: "failed", id, ...spawnerDescribe(error) }));
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
}

/**
 * Removes a finished run's folders with the system's rm, which walks a tree in constant memory (fs.rm starts on
 * every entry of a folder at once, which ran this small heap out of memory at 40,000 files; a checkout with
 * node_modules has more). Reports once, then calls `settled`.
 */
export function spawnerRemove(
  m: Extract<SpawnerRequest, { op: "remove" }>,
  send: (message: SpawnerReply) => void,
  settled: () => void,
): void {
  const { spawn } = require("node:child_process") as typeof import("node:child_process");
  let stderr = "";
  let reported = false;
  const done = (error: string | undefined): void => {
    if (reported) return;
    reported = true;
    send(error === undefined ? { op: "removed", id: m.id } : { op: "removed", id: m.id, error });
    settled();
  };
  let rm: ChildProcess;
  try {
    rm = spawn("rm", ["-rf", "--", ...m.paths], { stdio: ["ignore", "ignore", "pipe"] });
  } catch (error) {
    done(spawnerDescribe(error).message);
    return;
  }
  rm.stderr?.setEncoding("utf8");
  rm.stderr?.on("data", (text: string) => {
    if (stderr.length < 2000) stderr += text;
  });
  rm.once("error", (error) => done(`rm could not be run: ${spawnerDescribe(error).message}`));
  rm.once("close", (code, signal) => {
    if (code === 0) done(undefined);
    else if (code !== null) done(stderr.trim().split("\n")[0] || `rm exited with code ${code}`);
    else done(`rm was killed by ${signal}`);
  });
}

/** An error's errno name and message, whatever was thrown. */
export function spawnerDescribe(error: unknown): { code: string | undefined; message: string } {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  return { code: typeof e?.code === "string" ? e.code : undefined, message: String(e?.message) };
}

/**
 * The spawner's program as a script for `node -e`: the functions' compiled texts, then the main one called. (A
 * bundler that renames one of them renames its uses in the others too, so the texts still agree.)
 */
export const SPAWNER_SOURCE = `"use strict";\n${[spawnerStart, spawnerRemove, spawnerDescribe].map(String).join("\n")}\n(${String(spawnerProgram)})();`;
