import type { Logger } from "@errand/channel-sdk";

/** How a polled source's recent polls went: what its health reports and how long it waits before the next poll. */
export interface PollStatus {
  /** Failed polls in a row; 0 after a successful one. */
  readonly failures: number;
  /** Records a successful poll, logging a recovery when polls were failing. */
  succeeded(logger: Logger): void;
  /** Records a failed poll (or preparation) and its error message for health. */
  failed(error: unknown): void;
  /** The wait before the next poll: the interval, doubled per failure in a row up to the longest back-off. */
  nextDelay(): number;
  /** The health detail of a started source. */
  detail(): string;
  /** The recent polls as data (the console's sources page). */
  snapshot(): PollSnapshot;
}

/** How a polled source's recent polls went, as {@link PollStatus.snapshot} reports it. Times in epoch ms. */
export interface PollSnapshot {
  intervalMs: number;
  failures: number;
  lastPollAt: number | undefined;
  lastOkAt: number | undefined;
  lastError: string | undefined;
}

/** A {@link PollStatus} for polls every `intervalMs`, backing off to at most `maxBackoffMs` while they fail. */
export function createPollStatus(intervalMs: number, maxBackoffMs: number): PollStatus {
  let failures = 0;
  let lastOk: number | undefined;
  let lastPoll: number | undefined;
  let lastError: string | undefined;
  return {
    get failures() {
      return failures;
    },
    succeeded(logger) {
      if (failures > 0) logger.info("ticket source recovered", { after_failures: failures });
      failures = 0;
      lastOk = Date.now();
      lastPoll = lastOk;
      lastError = undefined;
    },
    failed(error) {
      failures++;
      lastPoll = Date.now();
      lastError = error instanceof Error ? error.message : String(error);
    },
    snapshot: () => ({ intervalMs, failures, lastPollAt: lastPoll, lastOkAt: lastOk, lastError }),
    nextDelay: () => (failures === 0 ? intervalMs : Math.min(maxBackoffMs, intervalMs * 2 ** Math.min(failures, 20))),
    detail: () =>
      lastError === undefined
        ? `polling every ${intervalMs / 1000} s${lastOk ? `, last poll ${new Date(lastOk).toISOString()}` : ""}`
        : `failing (${failures} in a row): ${lastError}`,
  };
}
