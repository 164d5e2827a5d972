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
