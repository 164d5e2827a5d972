import type { Logger } from "@errand/channel-sdk";
import type { EngineConfig } from "../../config/controller-config.js";
import type { KubeClients } from "../../kube/kube-api.js";
import type { ClusterView } from "./cluster-view.js";
import type { KubernetesExecutionConfig } from "./kubernetes-config.js";

/** What every run of the kubernetes backend shares. */
export interface RunContext {
  clients: KubeClients;
  /** The shared watches, started on first use. */
  view(): ClusterView;
  namespace: string;
  config: KubernetesExecutionConfig;
  /** `engines.<name>`: where each engine's API key is. */
  engines: Readonly<Record<string, EngineConfig>>;
  activeDeadlineSeconds: number;
  logger: Logger;
  now: () => number;
  /** First pause before retrying a failed call. */
  retryMs: number;
}

/** How long the log may take to be read to its end once the container ended (twice, see PodLogFollower). */
export const LOG_DRAIN_MS = 5_000;
