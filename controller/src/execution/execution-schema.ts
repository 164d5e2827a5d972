import type * as z from "zod";
import { resolveFrom } from "../config/resolve-from.js";
import { choice, filePath, optionalSection, resolved, section, whole, withDefaults } from "../config/schema/kit.js";
import { kubernetesConfig, kubernetesSchema } from "./kubernetes/kubernetes-schema.js";

const MIB = 1024 * 1024;

/** `execution` as written in errand.yaml: where and how engine processes run. */
export const executionSection = section({
  backend: choice(["local", "kubernetes"]).default("local").meta({
    description: "Execution backend: `local` (child processes on this machine) or `kubernetes` (a cluster job).",
  }),
  local: withDefaults(
    section({
      workspace_dir: filePath("Folder under which each run gets a fresh workspace.").default(".errand/workspaces"),
      log_dir: filePath("Folder of the per-run log files.").default(".errand/logs"),
      log_max_bytes: whole(1024, 1024 * MIB, 10 * MIB)
        .default(10 * MIB)
        .meta({
          description: "Most bytes kept of one run's log (stdout and stderr); the rest is dropped with a marker.",
        }),
      kill_grace_ms: whole(0, 600_000, 10_000).default(10_000).meta({
        description: "Time between SIGTERM and SIGKILL when a run is cancelled, times out or the controller stops.",
      }),
      keep_workspaces: choice(["always", "on_failure", "never"])
        .default("on_failure")
        .meta({ description: "When a run's workspace is kept after it ends." }),
    }),
  ).meta({ description: "Settings of the `local` backend." }),
  kubernetes: optionalSection(kubernetesSchema).meta({
    description: "Settings of the `kubernetes` backend (docs/kubernetes-backend.md).",
  }),
}).meta({ description: "Execution: where and how engine processes run." });

/**
 * `execution`, resolved: folders made absolute against `baseDir` (the config
 * file's folder); `kubernetes` is set when the backend is `kubernetes` (every
 * default when the section is absent) or the section is written.
 */
export const executionConfig = (baseDir: string) =>
  executionSection.transform((e) => ({
    backend: e.backend,
    local: {
      /** Folder under which each run gets its workspace. */
      workspaceDir: resolveFrom(baseDir, e.local.workspace_dir),
      /** Folder of the per-run log files. */
      logDir: resolveFrom(baseDir, e.local.log_dir),
      /** Most bytes kept of one run's log. */
      logMaxBytes: e.local.log_max_bytes,
      /** Time between SIGTERM and SIGKILL, ms. */
      killGraceMs: e.local.kill_grace_ms,
      /** Keep a workspace after its run ended (default: removed on success). */
      keepWorkspaces: e.local.keep_workspaces,
    },
    kubernetes:
      e.kubernetes === undefined && e.backend !== "kubernetes"
        ? undefined
        : resolved(kubernetesConfig(baseDir), e.kubernetes ?? kubernetesSchema.parse({})),
  }));

/** `execution`, resolved. */
export type ExecutionConfig = z.output<ReturnType<typeof executionConfig>>;
