import type { Logger } from "@errand/channel-sdk";
import type { EngineConfig } from "../../config/controller-config.js";
import type { KubeClients } from "../../kube/kube-api.js";
import type { RepositoriesConfig } from "../../repositories/repositories-schema.js";
import type { RepositoryToken } from "../../repositories/repository-token.js";
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
  /** Set when `repositories.codehost_a` is: each run's pod clones the ticket's repository and pushes its branch. */
  repositories?: KubernetesRepositories;
}

/** What the pods' checkout is made from. */
export interface KubernetesRepositories {
  /** `repositories.checkout`. */
  checkout: RepositoriesConfig["checkout"];
  /** The credential clone and push use, put in a Secret per run. */
  token: RepositoryToken;
}

/** How long the log may take to be read to its end once the container ended (twice, see PodLogFollower). */
export const LOG_DRAIN_MS = 5_000;
