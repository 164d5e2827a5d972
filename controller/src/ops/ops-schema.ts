import type * as z from "zod";
import { choice, section, text, whole } from "../config/schema/kit.js";

/** `ops` as written in errand.yaml: the operations server and logging. */
export const opsSection = section({
  host: text().default("127.0.0.1").meta({ description: "Address of /healthz, /readyz and /metrics." }),
  port: whole(0, 65_535, 9090)
    .default(9090)
    .meta({ description: "Port of /healthz, /readyz and /metrics (0 picks a free one)." }),
  shutdown_grace_seconds: whole(0, 3600, 30)
    .default(30)
    .meta({ description: "On SIGTERM, time running work gets to finish before it is stopped." }),
  leader_lease_seconds: whole(2, 300, 15).default(15).meta({
    description:
      "Lease of the loop's leader: when the controller running the loop dies, another takes over within about this long.",
  }),
  log_level: choice(["debug", "info", "warn", "error"])
    .default("info")
    .meta({ description: "Least level written to the log." }),
}).meta({ description: "Operations: health, metrics, shutdown, logs." });

/** `ops`, resolved: times in milliseconds. */
export const opsConfig = opsSection.transform((o) => ({
  host: o.host,
  /** Port of /healthz, /readyz and /metrics; 0 picks a free one. */
  port: o.port,
  /** Grace period on SIGTERM, ms. */
  shutdownGraceMs: o.shutdown_grace_seconds * 1000,
  /** Lease of the loop's leader, ms (`ops.leader_lease_seconds`). */
  leaderLeaseMs: o.leader_lease_seconds * 1000,
  logLevel: o.log_level,
}));

/** `ops`, resolved. */
export type OpsConfig = z.output<typeof opsConfig>;
