import { type ChildProcess, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import type { Logger } from "@errand/channel-sdk";
import { type EngineEvents, type Spawner, SpawnFailure, type SpawnRequest } from "./spawner.js";
import type { SpawnerReply, SpawnerRequest } from "./spawner-messages.js";
import { SPAWNER_SOURCE } from "./spawner-program.js";

interface Pending {
  resolve(pid: number): void;
  reject(error: SpawnFailure): void;
  events: EngineEvents;
}

/** Creates the spawner. `logger` tells when the helper died and was restarted. */
export function createSpawner(logger: Logger): Spawner {
  return new HelperSpawner(logger);
}

interface Running {
  pid: number;
  events: EngineEvents;
  /** What is still to come: two stream ends and the exit. */
  open: number;
}

interface Removal {
  paths: readonly string[];
  resolve(error: Error | undefined): void;
}

/** The {@link Spawner} of {@link createSpawner}: one helper process at a time, its replies matched by id. */
class HelperSpawner implements Spawner {
  private helper: ChildProcess | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly running = new Map<number, Running>();
  private readonly idOfPid = new Map<number, number>();
  private readonly removals = new Map<number, Removal>();
  private closing = false;

  constructor(private readonly logger: Logger) {}

  get pid(): number | undefined {
    return this.helper?.pid;
  }

  start(): void {
    this.ensureHelper();
  }

  spawn(request: SpawnRequest, events: EngineEvents): Promise<number> {
    const child = this.ensureHelper();
    const id = this.nextId++;
    return new Promise<number>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, events });
      this.refWhileBusy();
      const message: SpawnerRequest = {
        op: "spawn",
        id,
        command: request.command,
        args: request.args,
        cwd: request.cwd,
        env: request.env,
        stdin: request.stdin,
      };
      child.send(message, (error) => {
        if (error === null || error === undefined || !this.pending.has(id)) return;
        this.pending.delete(id);
        this.refWhileBusy();
        reject(new SpawnFailure(`the engine spawner process could not be reached: ${error.message}`, "ESPAWNERLOST"));
      });
    });
  }

  remove(paths: readonly string[]): Promise<Error | undefined> {
    const child = this.helper;
    if (child === undefined || !child.connected) return removeHere(paths);
    const id = this.nextId++;
    return new Promise<Error | undefined>((resolve) => {
      this.removals.set(id, { paths, resolve });
      this.refWhileBusy();
      const message: SpawnerRequest = { op: "remove", id, paths };
      child.send(message, (error) => {
        if (error === null || error === undefined || !this.removals.has(id)) return;
        this.removals.delete(id);
        this.refWhileBusy();
        void removeHere(paths).then(resolve);
      });
    });
  }

  closeOutput(pid: number): void {
    const id = this.idOfPid.get(pid);
    if (id === undefined) return;
    const message: SpawnerRequest = { op: "close-output", id };
    this.helper?.send(message);
  }

  close(): void {
    const child = this.helper;
    if (child === undefined || !child.connected) return;
    this.closing = true;
    // Once the channel is closed no message can come, so exit is the end (close never comes after disconnect()).
    child.once("exit", (code, signal) => this.onGone(child, code, signal));
    child.disconnect();
  }

  /** The helper keeps the controller alive only while it has work. */
  private refWhileBusy(): void {
    const helper = this.helper;
    if (helper === undefined) return;
    const busy = this.pending.size + this.running.size + this.removals.size > 0;
    const channel = helper.channel as unknown as { ref(): void; unref(): void } | undefined;
    if (busy) {
      helper.ref();
      channel?.ref();
    } else {
      helper.unref();
      channel?.unref();
    }
  }

  private settleOne(id: number, entry: Running): void {
    entry.open -= 1;
    if (entry.open > 0) return;
    this.running.delete(id);
    this.idOfPid.delete(entry.pid);
    this.refWhileBusy();
  }

  private readonly onMessage = (message: SpawnerReply): void => {
    switch (message.op) {
      case "spawned": {
        const waiting = this.pending.get(message.id);
        if (waiting === undefined) return;
        this.pending.delete(message.id);
        this.running.set(message.id, { pid: message.pid, events: waiting.events, open: 3 });
        this.idOfPid.set(message.pid, message.id);
        waiting.resolve(message.pid);
        return;
      }
      case "failed": {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        this.refWhileBusy();
        waiting?.reject(new SpawnFailure(message.message, message.code ?? undefined));
        return;
      }
      case "data": {
        const chunk = message.chunk;
        this.running
          .get(message.id)
          ?.events.data(
            message.stream,
            Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength),
          );
        return;
      }
      case "end":
      case "exit": {
        const entry = this.running.get(message.id);
        if (entry === undefined) return;
        if (message.op === "end") entry.events.end(message.stream);
        else entry.events.exit({ exitCode: message.code ?? undefined, signal: message.signal ?? undefined });
        this.settleOne(message.id, entry);
        return;
      }
      case "removed": {
        const removal = this.removals.get(message.id);
        if (removal === undefined) return;
        this.removals.delete(message.id);
        this.refWhileBusy();
        removal.resolve(message.error === undefined ? undefined : new Error(message.error));
        return;
      }
    }
  };

  private onGone(child: ChildProcess, code: number | null, signal: string | null): void {
    if (this.helper !== child) return;
    this.helper = undefined;
    const lostStarts = [...this.pending.values()];
    const lostRuns = [...this.running.values()];
    const lostRemovals = [...this.removals.values()];
    this.pending.clear();
    this.running.clear();
    this.idOfPid.clear();
    this.removals.clear();
    // After close(), what is left are runs whose exit came and whose stream ends did not (a drain that timed out).
    if (lostStarts.length + lostRuns.length > 0 && !this.closing) {
      this.logger.error("the engine spawner process ended with engines in its care; it is restarted at the next run", {
        pid: child.pid,
        exitCode: code ?? undefined,
        signal: signal ?? undefined,
        runs: lostRuns.length,
        starting: lostStarts.length,
      });
    }
    for (const start of lostStarts)
      start.reject(new SpawnFailure("the engine spawner process ended before the engine started", "ESPAWNERLOST"));
    for (const run of lostRuns) run.events.lost();
    for (const removal of lostRemovals) void removeHere(removal.paths).then(removal.resolve);
  }

  private ensureHelper(): ChildProcess {
    if (this.helper !== undefined) return this.helper;
    const env = { ...process.env };
    // The controller's node options (--cpu-prof, heap limits) are not the helper's.
    delete env.NODE_OPTIONS;
    // A small heap: the helper holds a few objects per engine, and a fork copies the page tables of
    // everything mapped (measured: with node's default heap it grew to 109 MB over 10,000 runs).
    const child = spawn(
      process.execPath,
      ["--max-old-space-size=24", "--max-semi-space-size=1", "-e", SPAWNER_SOURCE],
      { stdio: ["ignore", "ignore", "inherit", "ipc"], serialization: "advanced", env },
    );
    child.on("message", this.onMessage);
    child.on("error", (error) => this.logger.error("the engine spawner process failed", { error }));
    child.once("close", (code, signal) => this.onGone(child, code, signal));
    this.helper = child;
    this.refWhileBusy();
    return child;
  }
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
