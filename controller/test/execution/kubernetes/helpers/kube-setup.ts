import { setTimeout as sleep } from "node:timers/promises";
import type { EngineConfig } from "../../../../src/config/controller-config.js";
import { createCommandEngine } from "../../../../src/engines/command/command-engine.js";
import type { Engine } from "../../../../src/engines/engine.js";
import type { ExecutionBackend, RunSpec } from "../../../../src/execution/execution-backend.js";
import { createKubernetesBackend } from "../../../../src/execution/kubernetes/kubernetes-backend.js";
import {
  KUBERNETES_DEFAULTS,
  type KubernetesExecutionConfig,
} from "../../../../src/execution/kubernetes/kubernetes-config.js";
import type { KubernetesRepositories } from "../../../../src/execution/kubernetes/run-context.js";
import { jobNameFor } from "../../../../src/kube/kubernetes-names.js";
import { onCleanup, recordingLogger, specFor } from "../../helpers/local-setup.js";
import { FakeKubeApi } from "../fake-api/fake-kube-api.js";

/** The API key the tests' Secret holds; it must never appear in a manifest. */
export const API_KEY = "sk-test-0123456789abcdefABCDEF";

/** `engines.agent`: a command engine in an image, its key in the Secret `agent-key`. */
export function agentConfig(overrides: Partial<EngineConfig> = {}): EngineConfig {
  return {
    name: "agent",
    kind: "command",
    command: ["/opt/agent/run.sh", "--verbose"],
    args: [],
    authMethod: "api_key",
    apiKeySecret: "agent-key",
    promptVia: "file",
    promptTemplate: undefined,
    env: { AGENT_MODE: "ci" },
    image: "registry.example/agent:1.2",
    model: undefined,
    ...overrides,
  };
}

/** A fake API server with the key's Secret in it; closed after the test. */
export async function startFake(): Promise<FakeKubeApi> {
  const fake = await FakeKubeApi.start();
  fake.putSecret("agent-key", { value: API_KEY });
  onCleanup(() => fake.close());
  return fake;
}

/** What a backend test works with. */
export interface KubeRig {
  fake: FakeKubeApi;
  backend: ExecutionBackend;
  engine: Engine;
  logger: ReturnType<typeof recordingLogger>;
  config: KubernetesExecutionConfig;
}

/** A kubernetes backend on `fake` (namespace `errand`), closed after the test. */
export function kubeBackend(
  fake: FakeKubeApi,
  options: {
    config?: Partial<KubernetesExecutionConfig>;
    engine?: Partial<EngineConfig>;
    repositories?: KubernetesRepositories;
  } = {},
): KubeRig {
  const config: KubernetesExecutionConfig = { ...KUBERNETES_DEFAULTS, namespace: "errand", ...options.config };
  const engineConfig = agentConfig(options.engine);
  const logger = recordingLogger();
  const backend = createKubernetesBackend({
    config,
    engines: { agent: engineConfig },
    maxJobDurationMinutes: 60,
    logger,
    kubeConfig: fake.kubeConfig(),
    retryMs: 20,
    ...(options.repositories === undefined ? {} : { repositories: options.repositories }),
  });
  onCleanup(() => backend.close());
  return { fake, backend, engine: createCommandEngine(engineConfig), logger, config };
}

/** A spec of the agent engine with the API key resolved. */
export function agentSpec(engine: Engine): RunSpec & { jobName: string } {
  const spec = specFor(engine, API_KEY);
  return { ...spec, jobName: jobNameFor(spec.run.id) };
}

/** Polls until `check` returns a value (the fake's controllers act asynchronously). */
export async function eventually<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  ms = 10_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    let value: T | undefined;
    try {
      value = await check();
    } catch {
      value = undefined;
    }
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Waits for the Job's pod and starts its container; returns the environment it got. */
export async function runPod(fake: FakeKubeApi, jobName: string): Promise<Record<string, string> | undefined> {
  await eventually(`the pod of ${jobName}`, () => fake.pod(jobName));
  return fake.startPod(jobName);
}

/** A termination message as the wrapper writes it around a result file. */
export function resultMessage(result: Record<string, unknown>): string {
  return `errand-result v1\n${JSON.stringify(result)}\n`;
}
