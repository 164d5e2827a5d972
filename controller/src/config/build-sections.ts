import { buildKubernetes } from "./build-kubernetes.js";
import type { ExecutionConfig } from "./controller-config.js";
import { resolveFrom } from "./resolve-from.js";
import type { ControllerDocument } from "./schema/controller-schema.js";

/** `execution`, folders made absolute. */
export function buildExecution(section: ControllerDocument["execution"], baseDir: string): ExecutionConfig {
  const local = section.local;
  return {
    backend: section.backend,
    local: {
      workspaceDir: resolveFrom(baseDir, local.workspace_dir),
      logDir: resolveFrom(baseDir, local.log_dir),
      logMaxBytes: local.log_max_bytes,
      killGraceMs: local.kill_grace_ms,
      keepWorkspaces: local.keep_workspaces,
    },
    kubernetes: buildKubernetes(section, baseDir),
  };
}
