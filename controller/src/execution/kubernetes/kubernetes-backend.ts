import type { Logger } from "@errand/channel-sdk";
import { createSecretMask } from "@errand/channel-sdk/host";
import type { KubeConfig } from "@kubernetes/client-node";
import type { EngineConfig } from "../../config/controller-config.js";
import { ControllerError, ControllerErrorCode } from "../../errors.js";
import { makeClients } from "../../kube/kube-api.js";
import { jobNamespace, loadKubeConfig } from "../../kube/load-kube-config.js";
import type { ExecutionBackend, RunHandle } from "../execution-backend.js";
import { maskingTokens } from "./checkout-token.js";
import { type ClusterView, createClusterView } from "./cluster-view.js";
import { CONTAINER_PATHS } from "./container-paths.js";
import { activeDeadlineSeconds, KUBERNETES_DEFAULTS, type KubernetesExecutionConfig } from "./kubernetes-config.js";
import { readPodLog } from "./read-pod-log.js";
import { recoverJobRun } from "./recover-job.js";
import type { KubernetesRepositories, RunContext } from "./run-context.js";
import { startJobRun } from "./start-job.js";

/** Options of {@link createKubernetesBackend}. */
export interface KubernetesBackendOptions {
  /** `execution.kubernetes`; undefined: every default. */
  config: KubernetesExecutionConfig | undefined;
  /** `engines`: the secret that holds each engine's API key. */
  engines: Readonly<Record<string, EngineConfig>>;
  /** `guardrails.max_job_duration_minutes`: the Jobs' default activeDeadlineSeconds is made from it. */
  maxJobDurationMinutes: number;
  logger: Logger;
  /** The cluster to use; default: loaded as `config` says (tests point it at a fake API server). */
  kubeConfig?: KubeConfig;
  /** Secret values masked in logs read back from pods (`readLog`). */
  secrets?: readonly string[];
  /** Clock, ms; default Date.now. */
  now?: () => number;
  /** First pause before retrying a failed watch, log read or deletion; default 1000 ms. */
  retryMs?: number;
  /** `repositories` with its credential: each run's pod clones the ticket's repository and pushes its branch. */
  repositories?: KubernetesRepositories;
}

/** Watches end on the server's side after this and are resumed, so a silently dead connection is not kept forever. */
const WATCH_TIMEOUT_SECONDS = 300;

/**
 * The `kubernetes` execution backend: one batch/v1 Job per run, in the
 * configured namespace, from the engine's image (docs/kubernetes-backend.md).
 * Status comes from two shared watches (Jobs and pods), the engine's output
 * from its pod log, the result from the container's termination message.
 * Runs survive a controller restart: their Jobs are re-attached.
 */
export function createKubernetesBackend(options: KubernetesBackendOptions): ExecutionBackend {
  const config = options.config ?? KUBERNETES_DEFAULTS;
  const kubeConfig = options.kubeConfig ?? loadKubeConfig(config);
  const namespace = jobNamespace(config, kubeConfig);
  const logger = options.logger.child({ backend: "kubernetes", namespace });
  const clients = makeClients(kubeConfig);
  const retryMs = options.retryMs ?? 1000;
  const masked = new Set(options.secrets ?? []);
  let mask = createSecretMask(masked);
  const addMasked = (secret: string | undefined): void => {
    if (secret === undefined || secret === "" || masked.has(secret)) return;
    masked.add(secret);
    mask = createSecretMask(masked);
  };
  let view: ClusterView | undefined;
  const context: RunContext = {
    clients,
    view: () =>
      (view ??= createClusterView({ clients, namespace, logger, retryMs, timeoutSeconds: WATCH_TIMEOUT_SECONDS })),
    namespace,
    config,
    engines: options.engines,
    activeDeadlineSeconds: activeDeadlineSeconds(config, options.maxJobDurationMinutes),
    logger,
    now: options.now ?? Date.now,
    retryMs,
    // Every token a run gets is masked in the logs read back from its pod.
    ...(options.repositories && { repositories: maskingTokens(options.repositories, addMasked) }),
  };
  const active = new Set<RunHandle>();
  const starting = new Set<Promise<RunHandle>>();
  let closed = false;
  const track = (handle: RunHandle): RunHandle => {
    active.add(handle);
    void handle.done.then(() => active.delete(handle));
    return handle;
  };

  return {
    name: "kubernetes",
    detachesOnShutdown: true,
    async start(spec, hooks) {
      if (closed)
        throw new ControllerError(
          ControllerErrorCode.Internal,
          `run ${spec.run.id} was started after the kubernetes backend was closed`,
        );
      addMasked(spec.apiKey);
      const pending = startJobRun(context, spec, hooks);
      starting.add(pending);
      try {
        return track(await pending);
      } finally {
        starting.delete(pending);
      }
    },
    async recover(run, hooks, spec) {
      const plan = await recoverJobRun(context, run, hooks, spec);
      if (plan.action === "reattach") track(plan.handle);
      return plan;
    },
    workspaceOf: () => CONTAINER_PATHS.workspace,
    readLog(run, maxBytes) {
      return readPodLog(clients, run, maxBytes, mask);
    },
    async close() {
      closed = true;
      await Promise.allSettled([...starting]);
      const left = [...active];
      if (left.length > 0) logger.warn("closing with runs still running; stopping them", { runs: left.length });
      await Promise.all(
        left.map(async (handle) => {
          await handle.stop("shutdown");
          await handle.done;
        }),
      );
      await view?.close();
    },
  };
}
