import type { CheckDefinition } from "../check.js";
import { deadlineCheck } from "./deadline.js";
import { handshakeV1Check, healthCheck, unsupportedVersionCheck } from "./handshake.js";
import { basicChecks } from "./notify.js";
import { shutdownRpcCheck, sigtermCheck } from "./shutdown.js";
import { cookieCheck, handshakeLineCheck, stdoutCleanCheck } from "./startup.js";
import { deliveryCheck, hangCheck, persistent5xxCheck, rateCheck, retryAfterCheck } from "./target.js";

/** Checks in phases: a later phase runs only when its gate checks passed. */
export const PHASES: { checks: CheckDefinition[]; gate: string[] }[] = [
  { checks: [cookieCheck, handshakeLineCheck], gate: [] },
  { checks: [healthCheck, handshakeV1Check, unsupportedVersionCheck], gate: ["startup.handshake-line"] },
  {
    checks: [
      ...basicChecks,
      deadlineCheck,
      stdoutCleanCheck,
      shutdownRpcCheck,
      sigtermCheck,
      deliveryCheck,
      retryAfterCheck,
      persistent5xxCheck,
      hangCheck,
      rateCheck,
    ],
    gate: ["startup.handshake-line", "handshake.v1"],
  },
];

/** Every check id, in report order. */
export const CHECK_IDS: string[] = PHASES.flatMap((p) => p.checks.map((c) => c.id));
