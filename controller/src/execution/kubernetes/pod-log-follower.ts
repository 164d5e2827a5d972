import type { IncomingMessage } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@errand/channel-sdk";
import type { KubeConfig } from "@kubernetes/client-node";
import { apiProblem } from "../../kube/kube-api.js";
import { createLineSplitter, type SplitLine } from "../local/line-splitter.js";
import { MAX_LINE_BYTES } from "../local/run-output.js";
import { sinceTimeOf, splitTimestamp } from "./log-timestamp.js";
import { requestPodLog } from "./pod-log-request.js";
import { settlesWithin } from "./settles-within.js";

/** Options of {@link followPodLog}. */
export interface PodLogOptions {
  kubeConfig: KubeConfig;
  namespace: string;
  pod: string;
  container: string;
  /** One line of output (timestamp removed) and when the kubelet logged it. Must not throw. */
  onLine(text: string, atMs: number | undefined): void;
  logger: Logger;
  /** Pause before reconnecting; doubles on failures. */
  retryMs: number;
}

/** A followed pod log. */
export interface PodLogFollower {
  /** The container ended: reads what is left, then stops. Resolves once done, or after about twice `boundMs`. */
  finish(boundMs: number): Promise<void>;
  /** Stops at once. */
  stop(): void;
}

/** How one read of the log ended: to its end, stopped by us, cut by the network, pod gone, refused. */
type PassEnd = "ended" | "aborted" | "cut" | "gone" | "failed";
const MAX_RETRY_MS = 10_000;

/**
 * Follows a container's log line by line. The log is read with timestamps,
 * so that a connection that drops while the engine runs is resumed from
 * the last line's time with nothing lost and nothing repeated (lines at
 * that exact time already handled are skipped). Once the container has
 * ended, one plain read to the end completes it.
 */
export function followPodLog(options: PodLogOptions): PodLogFollower {
  const { logger } = options;
  let containerEnded = false;
  let stopped = false;
  let abortPass: (() => void) | undefined;
  let wake = new AbortController();

  const point: ResumePoint = { lastKey: undefined, countAtLast: 0 };
  const control: PassControl = {
    stopped: () => stopped,
    setAbort: (abort) => {
      abortPass = abort;
    },
  };
  const pass = (follow: boolean): Promise<PassEnd> => readPass(options, point, follow, control);

  const pause = (ms: number): Promise<void> => sleep(ms, undefined, { signal: wake.signal }).catch(() => undefined);

  const loop = async (): Promise<void> => {
    let delay = options.retryMs;
    while (!stopped) {
      const final = containerEnded;
      const how = await pass(!final);
      if (stopped || how === "gone" || (final && how === "ended")) break;
      if (how === "aborted") continue;
      if (how === "cut") logger.debug("the pod log stream was cut; resuming", { pod: options.pod });
      if (how === "failed") {
        await pause(delay);
        delay = Math.min(delay * 2, MAX_RETRY_MS);
        continue;
      }
      delay = options.retryMs;
      // A follow that ended (or was cut) while the engine still runs: resume it.
      if (!containerEnded) await pause(options.retryMs);
    }
  };
  const done = loop().catch((error: unknown) =>
    logger.error("following the pod log failed", { pod: options.pod, error }),
  );

  const stop = (): void => {
    stopped = true;
    wake.abort();
    abortPass?.();
  };

  return {
    async finish(boundMs) {
      containerEnded = true;
      wake.abort();
      wake = new AbortController();
      if (await settlesWithin(done, boundMs)) return;
      // The follow stays open (a connection that died without a word): the final read replaces it.
      abortPass?.();
      if (await settlesWithin(done, boundMs)) return;
      logger.warn("the pod log could not be read to its end; the run's result uses what was read", {
        pod: options.pod,
      });
      stop();
      await done;
    },
    stop,
  };
}

/** Where a resumed read picks up: the newest timestamp handled, and how many lines at that time were handled. */
interface ResumePoint {
  lastKey: string | undefined;
  countAtLast: number;
}

/** How a pass and the follower share stopping: the pass hands out its abort while it reads. */
interface PassControl {
  stopped(): boolean;
  setAbort(abort: (() => void) | undefined): void;
}

/** The line handler of one pass: skips what an earlier pass handled (lines at the point's time up to its count), moves the point on. */
function passHandler(point: ResumePoint, onLine: PodLogOptions["onLine"]): (line: SplitLine) => void {
  const passLast = point.lastKey;
  const passSkip = point.countAtLast;
  let passSeen = 0;
  return (line: SplitLine): void => {
    const stamped = splitTimestamp(line.text);
    const key = stamped.key;
    if (key !== undefined && passLast !== undefined) {
      if (key < passLast) return;
      if (key === passLast && ++passSeen <= passSkip) return;
    }
    if (key !== undefined && key === point.lastKey) point.countAtLast += 1;
    else if (key !== undefined && (point.lastKey === undefined || key > point.lastKey)) {
      point.lastKey = key;
      point.countAtLast = 1;
    }
    onLine(stamped.text, stamped.ms);
  };
}

/** One read of the log, following it or to its end, from the resume point. */
async function readPass(
  options: PodLogOptions,
  point: ResumePoint,
  follow: boolean,
  control: PassControl,
): Promise<PassEnd> {
  const splitter = createLineSplitter(MAX_LINE_BYTES, passHandler(point, options.onLine));
  const request = new AbortController();
  let abort: () => void = () => undefined;
  const aborted = new Promise<PassEnd>((resolve) => {
    abort = () => {
      request.abort();
      resolve("aborted");
    };
  });
  control.setAbort(abort);
  let response: IncomingMessage;
  try {
    const query = { follow, sinceTime: point.lastKey === undefined ? undefined : sinceTimeOf(point.lastKey) };
    const opened = requestPodLog(
      options.kubeConfig,
      options.namespace,
      options.pod,
      options.container,
      query,
      request.signal,
    );
    const first = await Promise.race([opened, aborted]);
    if (first === "aborted") {
      opened.then(
        (r) => r.destroy(),
        () => undefined,
      );
      return "aborted";
    }
    response = first as IncomingMessage;
  } catch (error) {
    control.setAbort(undefined);
    const problem = apiProblem(error);
    if (problem.status === 404) return "gone";
    options.logger.debug("reading the pod log failed", { pod: options.pod, error: problem.message });
    return "failed";
  }
  if (control.stopped()) abort();
  response.on("data", (chunk: Buffer) => splitter.push(chunk));
  const ended = new Promise<PassEnd>((resolve) => {
    response.once("end", () => resolve("ended"));
    response.once("close", () => resolve(response.complete ? "ended" : "cut"));
    response.on("error", () => resolve("cut"));
  });
  const how = await Promise.race([ended, aborted]);
  control.setAbort(undefined);
  response.destroy();
  // A cut-off last line is read again, whole, by the next pass.
  if (how === "ended") splitter.end();
  return how;
}
