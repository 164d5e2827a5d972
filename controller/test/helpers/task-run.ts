import type { TaskRun } from "../../src/runs/task-run.js";

/**
 * A Running TaskRun as the store hands one to a backend, an observer or a
 * write-back: attempt 1 on the local backend, started now, nothing else
 * recorded yet. `fields` names the run and its ticket and may override the rest.
 */
export function runningTaskRun(fields: Pick<TaskRun, "id" | "ticket"> & Partial<TaskRun>): TaskRun {
  const now = Date.now();
  return {
    attempt: 1,
    state: "Running",
    engine: "fixture",
    backend: "local",
    createdAt: now,
    updatedAt: now,
    startedAt: now,
    finishedAt: undefined,
    reason: "started",
    result: undefined,
    costUsd: undefined,
    logRef: undefined,
    attachment: undefined,
    cancelRequestedAt: undefined,
    branch: undefined,
    ...fields,
  };
}
