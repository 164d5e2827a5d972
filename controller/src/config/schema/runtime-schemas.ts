import { choice, optionalSection, section, text, whole, withDefaults } from "./kit.js";
import { kubernetesSchema } from "./kubernetes-schema.js";

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

/** `plugins`: where channel plugins are found. */
export const pluginsSchema = section({
  dir: path("An extra folder searched for installed channel plugins.").optional(),
}).meta({ description: "Channel plugins." });
