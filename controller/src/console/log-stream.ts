import type { IncomingMessage, ServerResponse } from "node:http";
import { type LogStep, logSteps } from "../engines/log-steps.js";
import type { ExecutionBackend } from "../execution/execution-backend.js";
import { isTerminal, type TaskRun } from "../runs/task-run.js";
import type { Store } from "../store/store.js";

/** Log bytes a page shows: a step is one short line, but one stream-json line can be several KB. */
export const LOG_TAIL_BYTES = 32_768;
/** How often a live tail looks for new output. */
const POLL_MS = 400;
/** Streams open at once at most; more are refused (503) so that open tabs cannot pile up work. */
const MAX_STREAMS = 64;

/** Reads a run's log through the backend's scrubbing door (secrets masked) and turns it into readable steps. */
export type ReadSteps = (run: TaskRun) => Promise<LogStep[] | undefined>;

/** A {@link ReadSteps} over `backend`, which must be the scrubbing backend the controller's loop uses. */
export function stepsReader(backend: Pick<ExecutionBackend, "readLog">): ReadSteps {
  return async (run) => {
    const text = await backend.readLog(run, LOG_TAIL_BYTES);
    return text === undefined ? undefined : logSteps(text);
  };
}

/** The open live tails, so that the console can refuse a stream beyond its limit. */
export interface LogStreams {
  /**
   * Serves `/console/runs/<id>/log` as Server-Sent Events: a `tail` event (the steps, JSON) each time the tail
   * changes, then `end` once the run is finished.
   */
  serve(req: IncomingMessage, res: ServerResponse, run: TaskRun): void;
}

/** Live tails of runs' logs over Server-Sent Events. */
export function createLogStreams(store: Store, readSteps: ReadSteps): LogStreams {
  let open = 0;
  return {
    serve(req, res, first) {
      if (open >= MAX_STREAMS) {
        res.writeHead(503, { "content-type": "text/plain; charset=utf-8", "retry-after": "5" });
        res.end(`too many live log tails open (${MAX_STREAMS}); close some console tabs\n`);
        return;
      }
      open++;
      res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "x-accel-buffering": "no" });
      res.write("retry: 2000\n\n");
      let last = "";
      let timer: NodeJS.Timeout | undefined;
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        open--;
        clearTimeout(timer);
        res.end();
      };
      req.on("close", close);
      const tick = async (run: TaskRun | undefined) => {
        if (closed) return;
        if (run !== undefined) {
          const data = JSON.stringify((await readSteps(run)) ?? []);
          if (closed) return;
          if (data !== last) res.write(`event: tail\ndata: ${data}\n\n`);
          last = data;
        }
        if (run === undefined || isTerminal(run.state)) {
          res.write("event: end\ndata: {}\n\n");
          return close();
        }
        timer = setTimeout(() => void next(), POLL_MS);
      };
      // A store or log that cannot be read for now keeps the stream: it tries again, as a reload of the page would.
      const retry = () => {
        if (!closed) timer = setTimeout(() => void next(), POLL_MS * 5);
      };
      const next = () => store.getRun(first.id).then(tick).catch(retry);
      void tick(first).catch(retry);
    },
  };
}
