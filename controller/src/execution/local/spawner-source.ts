/**
 * The engine spawner's program: CommonJS, run with `node -e`, so it needs
 * no file beside the compiled ones and no TypeScript loader under tests.
 *
 * Why a process of its own: node:child_process forks the parent (libuv
 * clones without CLONE_VM) and blocks the parent's event loop until the
 * child has exec'd; both cost in proportion to the parent's memory. This
 * process stays a few tens of MB, so spawning from it is cheap and never
 * stalls the controller. It does nothing but spawn and report: the engine
 * leads a process group of its own (`detached`), which the controller
 * signals directly; output chunks, stream ends and the exit status come
 * back as IPC messages, in order.
 *
 * It also removes the workspaces of finished runs that hold more than
 * the controller's own files (an agent's checkout), so that walking a
 * large tree never stalls the controller's event loop; the controller
 * only waits for the answer when it shuts down.
 *
 * Messages in: {op:"spawn", id, command, args, cwd, env, stdin?},
 * {op:"close-output", id}, {op:"remove", id, paths}. Out:
 * {op:"spawned", id, pid}, {op:"failed", id, code, message},
 * {op:"data", id, stream, chunk}, {op:"end", id, stream},
 * {op:"exit", id, code, signal}, {op:"removed", id, error?}.
 * It exits when the controller's channel closes (the controller ended),
 * once the removals it was given are done.
 */
export const SPAWNER_SOURCE = String.raw`
"use strict";
const { spawn } = require("node:child_process");
const { rm } = require("node:fs/promises");
// Named in ps and /proc/<pid>/comm (the controller bench finds it by this name).
process.title = "errand-spawner";
const running = new Map();
const send = (message) => {
  if (process.connected) process.send(message);
};
const start = (m) => {
  const { id } = m;
  let child;
  try {
    child = spawn(m.command, m.args, {
      cwd: m.cwd,
      env: m.env,
      detached: true,
      stdio: [m.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
  } catch (error) {
    send({ op: "failed", id, code: error && error.code, message: String(error && error.message) });
    return;
  }
  if (child.pid === undefined) {
    child.once("error", (error) => send({ op: "failed", id, code: error.code, message: String(error.message) }));
    return;
  }
  send({ op: "spawned", id, pid: child.pid });
  running.set(id, child);
  if (m.stdin !== undefined) {
    // An engine that exits without reading its input closes the pipe: not an error of ours.
    child.stdin.on("error", () => {});
    child.stdin.end(m.stdin);
  }
  for (const stream of ["stdout", "stderr"]) {
    const pipe = child[stream];
    pipe.on("data", (chunk) => send({ op: "data", id, stream, chunk }));
    pipe.on("error", () => {});
    pipe.once("close", () => send({ op: "end", id, stream }));
  }
  child.once("exit", (code, signal) => send({ op: "exit", id, code, signal }));
  child.once("close", () => running.delete(id));
};
let removing = 0;
let disconnected = false;
const remove = async (m) => {
  removing += 1;
  let error;
  for (const path of m.paths) {
    try {
      await rm(path, { recursive: true, force: true, maxRetries: 2 });
    } catch (e) {
      if (error === undefined) error = String(e && e.message);
    }
  }
  send({ op: "removed", id: m.id, error });
  removing -= 1;
  if (disconnected && removing === 0) process.exit(0);
};
process.on("message", (m) => {
  if (m.op === "spawn") start(m);
  else if (m.op === "remove") void remove(m);
  else if (m.op === "close-output") {
    const child = running.get(m.id);
    if (child !== undefined) {
      child.stdout.destroy();
      child.stderr.destroy();
    }
  }
});
process.on("disconnect", () => {
  disconnected = true;
  if (removing === 0) process.exit(0);
});
`;
