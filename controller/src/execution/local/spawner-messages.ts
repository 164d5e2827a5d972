/** What the controller sends the engine spawner (see spawner-program.ts). */
export type SpawnerRequest =
  | {
      op: "spawn";
      id: number;
      command: string;
      args: readonly string[];
      cwd: string;
      env: Record<string, string>;
      stdin: string | undefined;
    }
  | { op: "close-output"; id: number }
  | { op: "remove"; id: number; paths: readonly string[] };

/** What the engine spawner sends back, in order per id. */
export type SpawnerReply =
  | { op: "spawned"; id: number; pid: number }
  | { op: "failed"; id: number; code: string | undefined; message: string }
  | { op: "data"; id: number; stream: "stdout" | "stderr"; chunk: Uint8Array }
  | { op: "end"; id: number; stream: "stdout" | "stderr" }
  | { op: "exit"; id: number; code: number | null; signal: string | null }
  | { op: "removed"; id: number; error?: string };
