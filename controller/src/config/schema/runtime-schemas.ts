import { say } from "../problem-codec.js";
import { choice, optionalSection, section, text, whole, withDefaults } from "./kit.js";
import { kubernetesSchema } from "./kubernetes-schema.js";
import { secretName } from "./secret-name-schema.js";

const MIB = 1024 * 1024;
const path = (description: string) => text({ fix: "write a folder or file path (relative paths start at the config file's folder)" }).meta({ description });

/** `execution`: where and how engine processes run. */
export const executionSchema = section({
  backend: choice(["local", "kubernetes"]).default("local").meta({ description: "Execution backend: `local` (child processes on this machine) or `kubernetes` (a cluster job)." }),
  local: withDefaults(
    section({
      workspace_dir: path("Folder under which each run gets a fresh workspace.").default(".errand/workspaces"),
      log_dir: path("Folder of the per-run log files.").default(".errand/logs"),
      log_max_bytes: whole(1024, 1024 * MIB, 10 * MIB)
        .default(10 * MIB)
        .meta({ description: "Most bytes kept of one run's log (stdout and stderr); the rest is dropped with a marker." }),
      kill_grace_ms: whole(0, 600_000, 10_000).default(10_000).meta({ description: "Time between SIGTERM and SIGKILL when a run is cancelled, times out or the controller stops." }),
      keep_workspaces: choice(["always", "on_failure", "never"]).default("on_failure").meta({ description: "When a run's workspace is kept after it ends." }),
    }),
  ).meta({ description: "Settings of the `local` backend." }),
  kubernetes: optionalSection(kubernetesSchema).meta({ description: "Settings of the `kubernetes` backend (docs/kubernetes-backend.md)." }),
}).meta({ description: "Execution: where and how engine processes run." });

/** `store`: where tickets and runs are kept. */
export const storeSchema = section({
  backend: choice(["sqlite", "postgres"]).default("sqlite").meta({ description: "`sqlite` (an embedded file) or `postgres`." }),
  path: path("SQLite file. Default: `.errand/errand.db` in the config file's folder (the working folder without a file).").optional(),
  url_secret: secretName("`postgres`: name of the secret holding the connection URL.").optional(),
})
  .superRefine((store, ctx) => {
    if (store.backend === "postgres" && store.url_secret === undefined) {
      ctx.addIssue({ code: "custom", path: ["url_secret"], input: undefined, message: say("is required when backend is postgres", "write the name of the secret holding the connection URL, e.g. errand-db-url") });
    }
    if (store.backend === "postgres" && store.path !== undefined) {
      ctx.addIssue({ code: "custom", path: ["path"], input: store.path, message: say("applies to sqlite only", "remove path, or set backend: sqlite") });
    }
    if (store.backend === "sqlite" && store.url_secret !== undefined) {
      ctx.addIssue({ code: "custom", path: ["url_secret"], input: store.url_secret, message: say("applies to postgres only", "remove url_secret, or set backend: postgres") });
    }
  })
  .meta({ description: "The durable store of tickets and runs." });

/** `ops`: the operations server and logging. */
export const opsSchema = section({
  host: text().default("127.0.0.1").meta({ description: "Address of /healthz, /readyz and /metrics." }),
  port: whole(0, 65_535, 9090).default(9090).meta({ description: "Port of /healthz, /readyz and /metrics (0 picks a free one)." }),
  shutdown_grace_seconds: whole(0, 3600, 30).default(30).meta({ description: "On SIGTERM, time running work gets to finish before it is stopped." }),
  leader_lease_seconds: whole(2, 300, 15).default(15).meta({ description: "Lease of the loop's leader: when the controller running the loop dies, another takes over within about this long." }),
  log_level: choice(["debug", "info", "warn", "error"]).default("info").meta({ description: "Least level written to the log." }),
}).meta({ description: "Operations: health, metrics, shutdown, logs." });

/** `plugins`: where channel plugins are found. */
export const pluginsSchema = section({
  dir: path("An extra folder searched for installed channel plugins.").optional(),
}).meta({ description: "Channel plugins." });

/** `secrets`: where named secrets are found. */
export const secretsSchema = section({
  dir: path("Folder with one file per secret (`<dir>/<name>`), as Kubernetes mounts a Secret. Unset: the environment only.").optional(),
}).meta({ description: "The secret store (see Secrets below)." });
