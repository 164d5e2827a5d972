import type { StopReason } from "../execution-backend.js";

/**
 * The failure reason of a stopped run when nobody gives a better one. The
 * loop knows more (who cancelled, the limit that was passed) and replaces
 * these with its own text.
 */
export const STOP_REASON_TEXT: Readonly<Record<StopReason, string>> = {
  cancel: "stopped: cancelled",
  timeout: "stopped: timed out",
  cost: "stopped: cost limit exceeded",
  shutdown: "stopped: the controller shut down",
};

/**
 * Why a run fails whose engine spawner died while it ran: its output and
 * exit status are lost, so the restart rule applies as to a dead controller.
 */
export const SPAWNER_LOST_REASON = "the engine spawner process died while the run was running";
