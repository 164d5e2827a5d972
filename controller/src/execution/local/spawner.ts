import { type ChildProcess, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import type { Logger } from "@errand/channel-sdk";
import type { SpawnerReply, SpawnerRequest } from "./spawner-messages.js";
import { SPAWNER_SOURCE } from "./spawner-program.js";

/** What to start: the engine's command, folder, whole environment and optional stdin text. */
export interface SpawnRequest {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  stdin: string | undefined;
}

/** How an engine process ended, as its parent saw it. */
export interface SpawnedExit {
  exitCode: number | undefined;
  signal: string | undefined;
}

/** What a started engine reports. Called in order; none may throw. */
export interface EngineEvents {
  data(stream: "stdout" | "stderr", chunk: Buffer): void;
  end(stream: "stdout" | "stderr"): void;
  exit(exit: SpawnedExit): void;
  /**
   * The spawner died while the engine was running: no more output, no exit
   * status will come. The engine's process group may still run.
   */
  lost(): void;
}

/** A spawn that failed: `code` is the errno name (ENOENT, EACCES) when there was one. */
export class SpawnFailure extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = "SpawnFailure";
  }
}

/**
 * Starts engine processes from a small helper process (see
 * spawner-program.ts for why), started at the first spawn and again after
 * it died.
 */
export interface Spawner {
  /** Resolves with the engine's pid once it has spawned; rejects with a {@link SpawnFailure}. */
  spawn(request: SpawnRequest, events: EngineEvents): Promise<number>;
  /** Closes the engine's output pipes (a process outside its group holds them open). */
  closeOutput(pid: number): void;
  /**
   * Removes `paths` (recursively; missing ones are fine) in the helper with
   * the system's `rm -rf`, off the controller's event loop. Resolves with
   * the failure rm reported, if any; never rejects. Without a running helper, or when it
   * dies meanwhile, the controller removes them itself.
   */
  remove(paths: readonly string[]): Promise<Error | undefined>;
  /** Starts the helper now rather than at the first spawn (it idles without keeping the process alive). */
  start(): void;
  /** The helper's pid while it runs (tests kill it to prove recovery). */
  readonly pid: number | undefined;
  /**
   * Stops the helper. Engines keep running: they are stopped through their
   * process groups. Removals already asked for are finished first.
   */
  close(): void;
}

interface Pending {
  resolve(pid: number): void;
  reject(error: SpawnFailure): void;
  events: EngineEvents;
}

/** Creates the spawner. `logger` tells when the helper died and was restarted. */
export function createSpawner(logger: Logger): Spawner {
  let helper: ChildProcess | undefined;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  /** `open` counts what is still to come: two stream ends and the exit. */
  const running = new Map<number, { pid: number; events: EngineEvents; open: number }>();
  const idOfPid = new Map<number, number>();
  const removals = new Map<number, { paths: readonly string[]; resolve(error: Error | undefined): void }>();
  let closing = false;

  /** The helper keeps the controller alive only while it has work. */
  const refWhileBusy = (): void => {
    if (helper === undefined) return;
    const busy = pending.size + running.size + removals.size > 0;
    const channel = helper.channel as unknown as { ref(): void; unref(): void } | undefined;
    if (busy) {
      helper.ref();
      channel?.ref();
    } else {
      helper.unref();
      channel?.unref();
    }
  };

  const settleOne = (id: number, entry: { pid: number; open: number }): void => {
    entry.open -= 1;
    if (entry.open > 0) return;
    running.delete(id);
    idOfPid.delete(entry.pid);
    refWhileBusy();
  };

  const onMessage = (message: SpawnerReply): void => {
    switch (message.op) {
      case "spawned": {
        const waiting = pending.get(message.id);
        if (waiting === undefined) return;
        pending.delete(message.id);
        running.set(message.id, { pid: message.pid, events: waiting.events, open: 3 });
        idOfPid.set(message.pid, message.id);
        waiting.resolve(message.pid);
        return;
      }
      case "failed": {
        const waiting = pending.get(message.id);
        pending.delete(message.id);
        refWhileBusy();
        waiting?.reject(new SpawnFailure(message.message, message.code ?? undefined));
        return;
      }
      case "data": {
        const chunk = message.chunk;
        running.get(message.id)?.events.data(message.stream, Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        return;
      }
      case "end": {
        const entry = running.get(message.id);
        if (entry === undefined) return;
        entry.events.end(message.stream);
        settleOne(message.id, entry);
        return;
      }
      case "exit": {
        const entry = running.get(message.id);
        if (entry === undefined) return;
        entry.events.exit({ exitCode: message.code ?? undefined, signal: message.signal ?? undefined });
        settleOne(message.id, entry);
        return;
      }
      case "removed": {
        const removal = removals.get(message.id);
        if (removal === undefined) return;
        removals.delete(message.id);
        refWhileBusy();
        removal.resolve(message.error === undefined ? undefined : new Error(message.error));
        return;
      }
    }
  };

  const onGone = (child: ChildProcess, code: number | null, signal: string | null): void => {
    if (helper !== child) return;
    helper = undefined;
    const lostStarts = [...pending.values()];
    const lostRuns = [...running.values()];
    const lostRemovals = [...removals.values()];
    pending.clear();
    running.clear();
    idOfPid.clear();
    removals.clear();
    // After close(), what is left are runs whose exit came and whose stream ends did not (a drain that timed out).
    if (lostStarts.length + lostRuns.length > 0 && !closing) {
      logger.error("the engine spawner process ended with engines in its care; it is restarted at the next run", {
        pid: child.pid,
        exitCode: code ?? undefined,
        signal: signal ?? undefined,
        runs: lostRuns.length,
        starting: lostStarts.length,
      });
    }
    for (const start of lostStarts) start.reject(new SpawnFailure("the engine spawner process ended before the engine started", "ESPAWNERLOST"));
    for (const run of lostRuns) run.events.lost();
    for (const removal of lostRemovals) void removeHere(removal.paths).then(removal.resolve);
  };

  const ensureHelper = (): ChildProcess => {
    if (helper !== undefined) return helper;
    const env = { ...process.env };
    // The controller's node options (--cpu-prof, heap limits) are not the helper's.
    delete env.NODE_OPTIONS;
    // A small heap: the helper holds a few objects per engine, and a fork copies the page tables of
    // everything mapped (measured: with node's default heap it grew to 109 MB over 10,000 runs).
    const child = spawn(process.execPath, ["--max-old-space-size=24", "--max-semi-space-size=1", "-e", SPAWNER_SOURCE], { stdio: ["ignore", "ignore", "inherit", "ipc"], serialization: "advanced", env });
    child.on("message", onMessage);
    child.on("error", (error) => logger.error("the engine spawner process failed", { error }));
    child.once("close", (code, signal) => onGone(child, code, signal));
    helper = child;
    refWhileBusy();
    return child;
  };

  return {
    get pid() {
      return helper?.pid;
    },
    start() {
      ensureHelper();
    },
    spawn(request, events) {
      const child = ensureHelper();
      const id = nextId++;
      return new Promise<number>((resolve, reject) => {
        pending.set(id, { resolve, reject, events });
        refWhileBusy();
        const message: SpawnerRequest = { op: "spawn", id, command: request.command, args: request.args, cwd: request.cwd, env: request.env, stdin: request.stdin };
        child.send(message, (error) => {
          if (error === null || error === undefined || !pending.has(id)) return;
          pending.delete(id);
          refWhileBusy();
          reject(new SpawnFailure(`the engine spawner process could not be reached: ${error.message}`, "ESPAWNERLOST"));
        });
      });
    },
    remove(paths) {
      const child = helper;
      if (child === undefined || !child.connected) return removeHere(paths);
      const id = nextId++;
      return new Promise<Error | undefined>((resolve) => {
        removals.set(id, { paths, resolve });
        refWhileBusy();
        child.send({ op: "remove", id, paths }, (error) => {
          if (error === null || error === undefined || !removals.has(id)) return;
          removals.delete(id);
          refWhileBusy();
          void removeHere(paths).then(resolve);
        });
      });
    },
    closeOutput(pid) {
      const id = idOfPid.get(pid);
      if (id !== undefined) helper?.send({ op: "close-output", id });
    },
    close() {
      const child = helper;
      if (child === undefined) return;
      if (!child.connected) return;
      closing = true;
      // Once the channel is closed no message can come, so exit is the end (close never comes after disconnect()).
      child.once("exit", (code, signal) => onGone(child, code, signal));
      child.disconnect();
    },
  };
}

/** The fallback of {@link Spawner.remove} in the controller's own process (the thread pool, not the event loop). */
async function removeHere(paths: readonly string[]): Promise<Error | undefined> {
  let failure: Error | undefined;
  for (const path of paths) {
    try {
      await rm(path, { recursive: true, force: true, maxRetries: 2 });
    } catch (error) {
      failure ??= error as Error;
    }
  }
  return failure;
}
