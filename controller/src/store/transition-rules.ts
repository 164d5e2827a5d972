import { StoreError } from "../errors.js";
import { ALLOWED_TRANSITIONS, RUN_STATES, type RunState } from "../runs/task-run.js";
import type { TransitionRequest } from "./store.js";

const KNOWN: ReadonlySet<string> = new Set(RUN_STATES);

/**
 * Refuses a transition request that ALLOWED_TRANSITIONS does not list for
 * every state in `from`, before any store reads the run: a request that
 * could never be valid is a bug in the caller, whatever state the run is in.
 */
export function checkTransitionRequest(req: TransitionRequest): void {
  const where = `transition of run ${req.runId} to ${String(req.to)}`;
  if (!KNOWN.has(req.to)) {
    throw new StoreError(`${where}: "${String(req.to)}" is not a run state`, {
      hint: `use one of ${RUN_STATES.join(", ")}`,
    });
  }
  if (req.from.length === 0) {
    throw new StoreError(`${where}: no state to move from was given`, { hint: "name the state(s) the run must be in" });
  }
  for (const from of req.from) {
    const allowed: readonly RunState[] | undefined = ALLOWED_TRANSITIONS[from];
    if (allowed?.includes(req.to)) continue;
    const next = allowed && allowed.length > 0 ? `${from} may only move to ${allowed.join(", ")}` : `${from} is final`;
    throw new StoreError(`${where}: ${from} → ${req.to} is not an allowed transition (${next})`, {
      hint: "this is a bug in the caller: see ALLOWED_TRANSITIONS in controller/src/runs/task-run.ts",
    });
  }
}
