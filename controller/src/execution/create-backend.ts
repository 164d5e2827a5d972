import type { Logger } from "@errand/channel-sdk";
import type { ControllerConfig } from "../config/controller-config.js";
import type { RepositoryToken } from "../repositories/repository-token.js";
import type { ExecutionBackend } from "./execution-backend.js";
import { createLocalBackend } from "./local-backend.js";

/**
 * The backend `execution.backend` names. The Kubernetes client is loaded
 * only when it is the one configured (or, for `errand runs show`, when the
 * run being shown ran there). With `repositoryToken` and
 * `repositories.codehost_a` set, the Kubernetes backend's pods clone and push.
 */
export async function createBackend(
  name: string,
  config: ControllerConfig,
  logger: Logger,
  secrets: readonly string[] = [],
  repositoryToken?: RepositoryToken,
): Promise<ExecutionBackend> {
  if (name !== "kubernetes")
    return createLocalBackend({ config: config.execution.local, logger: logger.child({ component: "execution" }) });
  const { createKubernetesBackend } = await import("./kubernetes/kubernetes-backend.js");
  return createKubernetesBackend({
    config: config.execution.kubernetes,
    engines: config.engines.byName,
    maxJobDurationMinutes: config.guardrails.maxJobDurationMinutes,
    logger: logger.child({ component: "execution" }),
    secrets,
    ...(repositoryToken !== undefined && config.repositories.codehostA !== undefined
      ? { repositories: { checkout: config.repositories.checkout, token: repositoryToken } }
      : {}),
  });
}
