import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@errand/channel-sdk";
import type { OutputParser } from "../../engines/engine.js";
import type { RunHooks } from "../execution-backend.js";
import { createLineSplitter } from "./line-splitter.js";
import type { RunLog } from "./run-log.js";

/**
 * Longest line handed to the parser and the log. Large enough for the
 * biggest single JSON event a coding-agent CLI prints (a final result with
 * a long summary, a tool result with a file in it); a line beyond it is
 * cut, so one runaway line cannot exhaust memory.
 */
export const MAX_LINE_BYTES = 1024 * 1024;

/** The engine's output, wired to the log, the parser and the hooks. */
export interface RunOutput {
  /** A chunk the engine wrote. */
  data(stream: "stdout" | "stderr", chunk: Buffer): void;
  /** The stream ended (the pipe closed). */
  end(stream: "stdout" | "stderr"): void;
  /**
   * Resolves once both streams ended and their last lines were handled.
   * A process that escaped the group may still hold the pipes: after
   * `boundMs` `close` is called to close them from this side.
   */
  drain(boundMs: number, close: () => void): Promise<void>;
}

/**
 * Reads stdout and stderr line by line. Neither the parser nor a hook can
 * break the reading: what they throw is logged once per run and dropped.
 */
export function wireOutput(parser: OutputParser, hooks: RunHooks, log: RunLog, logger: Logger): RunOutput {
  const complained = new Set<string>();
  const complain = (what: string, error: unknown): void => {
    if (complained.has(what)) return;
    complained.add(what);
    logger.warn(`${what} threw; later failures of this run are not logged`, { error });
  };
  const splitterFor = (name: "stdout" | "stderr") =>
    createLineSplitter(MAX_LINE_BYTES, (line) => {
      log.output(name, line);
      let events;
      try {
        events = parser.line(name, line.text);
      } catch (error) {
        complain("the engine's output parser", error);
        return;
      }
      for (const event of events) {
        try {
          hooks.onEvent(event);
        } catch (error) {
          complain("a run hook", error);
        }
      }
    });
  const splitters = { stdout: splitterFor("stdout"), stderr: splitterFor("stderr") };
  let open = 2;
  const ended = { stdout: false, stderr: false };
  let allEnded: (() => void) | undefined;
  const all = new Promise<void>((resolve) => {
    allEnded = resolve;
  });

  return {
    data(stream, chunk) {
      splitters[stream].push(chunk);
    },
    end(stream) {
      if (ended[stream]) return;
      ended[stream] = true;
      splitters[stream].end();
      open -= 1;
      if (open === 0) allEnded?.();
    },
    async drain(boundMs, close) {
      if (open > 0) {
        const timer = new AbortController();
        const inTime = await Promise.race([
          all.then(() => true),
          sleep(boundMs, false, { signal: timer.signal }).catch(() => false),
        ]);
        timer.abort();
        if (!inTime) {
          log.note(
            `the output pipes stayed open ${boundMs} ms after the engine's process group ended (a process outside the group holds them); closed them`,
          );
          close();
        }
      }
      // Idempotent: a line already emitted at "end" is not emitted again.
      splitters.stdout.end();
      splitters.stderr.end();
    },
  };
}
