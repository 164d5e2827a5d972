import type { Ticket } from "@errand/channel-sdk";
import type { EngineConfig } from "../../../../src/config/controller-config.js";
import { createEngine } from "../../../../src/engines/create-engine.js";
import { buildInputConfigMap } from "../../../../src/execution/kubernetes/job-manifest.js";
import {
  KUBERNETES_DEFAULTS,
  type KubernetesExecutionConfig,
} from "../../../../src/execution/kubernetes/kubernetes-config.js";
import { type JobSettings, type PreparedJob, prepareJob } from "../../../../src/execution/kubernetes/prepare-job.js";
import type { KubernetesRepositories } from "../../../../src/execution/kubernetes/run-context.js";
import { runningRun, TICKET } from "../../helpers/local-setup.js";

/** The Claude Code engine of the docs' example. */
export const CLAUDE: EngineConfig = {
  name: "claude_code",
  kind: "claude_code",
  command: undefined,
  args: [],
  authMethod: "api_key",
  apiKeySecret: "anthropic-api-key",
  promptVia: "stdin",
  promptTemplate: undefined,
  env: {},
  image: "ghcr.io/acme/claude-agent:2.1",
  model: undefined,
};

/** The run of the docs' example: a fixed id and ticket. */
export const EXAMPLE_RUN_ID = "run_01jq8z3x5k7m9p2r4t6v8w0y1a";

/** What {@link renderJob} makes, without any API call: the Job, and the ConfigMap as it would be made once the Job had `uid`. */
export function renderJob(
  options: {
    engine?: EngineConfig;
    config?: Partial<KubernetesExecutionConfig>;
    runId?: string;
    ticket?: Ticket;
    apiKey?: string;
    repositories?: KubernetesRepositories;
  } = {},
): PreparedJob & { configMap: ReturnType<typeof buildInputConfigMap> } {
  const engineConfig = options.engine ?? CLAUDE;
  const config = { ...KUBERNETES_DEFAULTS, namespace: "errand", ...options.config };
  const context: JobSettings = {
    namespace: "errand",
    config,
    engines: { [engineConfig.name]: engineConfig },
    activeDeadlineSeconds: 3900,
    ...(options.repositories === undefined ? {} : { repositories: options.repositories }),
  };
  const run = runningRun(engineConfig.name, {
    id: options.runId ?? EXAMPLE_RUN_ID,
    state: "Queued",
    startedAt: undefined,
  });
  const prepared = prepareJob(context, {
    run,
    ticket: options.ticket ?? TICKET,
    engine: createEngine(engineConfig),
    prompt: "Fix the login page.\n",
    apiKey: options.apiKey,
  });
  const configMap = buildInputConfigMap(
    prepared.job,
    "2f0d5b4c-9a77-4e0c-8d0e-5b1f3f1c2a10",
    prepared.configMapName,
    prepared.files,
  );
  return { ...prepared, configMap };
}
