import { createLogger } from "@errand/channel-sdk/host";
import { afterEach } from "vitest";
import { loadControllerConfig } from "../../../../src/config/load-controller-config.js";
import { type Controller, createController } from "../../../../src/controller.js";
import type { ExecutionBackend } from "../../../../src/execution/execution-backend.js";
import { createKubernetesBackend } from "../../../../src/execution/kubernetes/kubernetes-backend.js";
import { createRepositoryAccess } from "../../../../src/repositories/repository-access.js";
import type { RunObserver } from "../../../../src/runs/run-event.js";
import { resolveSecrets } from "../../../../src/secrets/resolve-secrets.js";
import { type createHarness, SECRET_ENV } from "../../../controller/harness.js";
import type { FakeKubeApi } from "../fake-api/fake-kube-api.js";
import { API_KEY } from "./kube-setup.js";

const controllers: Controller[] = [];
afterEach(async () => {
  for (const c of controllers.splice(0)) await c.stop();
});

/** A controller started in-process on the harness's store with the kubernetes backend on `fake`; stopped after the test unless stopped before. */
export async function kubernetesController(
  h: ReturnType<typeof createHarness>,
  fake: FakeKubeApi,
  options: { logs: string[]; shutdownGraceMs?: number; observers?: RunObserver[]; env?: Record<string, string> },
): Promise<{ controller: Controller; port: number; backend: ExecutionBackend; stop(): Promise<void> }> {
  const env = { ...SECRET_ENV, ERRAND_SECRET_AGENT_KEY: API_KEY, ...options.env };
  const { config } = await loadControllerConfig(h.configFile, { env });
  const engine = config.engines.byName.fixture;
  if (engine === undefined) throw new Error("the harness has no fixture engine");
  Object.assign(engine, { image: "registry.example/agent:1.2", authMethod: "api_key", apiKeySecret: "agent-key" });
  config.execution.backend = "kubernetes";
  if (options.shutdownGraceMs !== undefined) config.ops.shutdownGraceMs = options.shutdownGraceMs;
  const secrets = resolveSecrets(config, { env });
  const logger = createLogger({
    level: "debug",
    write: (line) => options.logs.push(line),
    secrets: Object.values(secrets),
  });
  const access = createRepositoryAccess(config.repositories.codehostA, secrets);
  const backend = createKubernetesBackend({
    config: config.execution.kubernetes,
    engines: config.engines.byName,
    maxJobDurationMinutes: config.guardrails.maxJobDurationMinutes,
    secrets: Object.values(secrets),
    logger,
    kubeConfig: fake.kubeConfig(),
    retryMs: 20,
    // As controller.ts wires it when the config has `repositories.codehost_a`: the pods clone and push.
    ...(access === undefined ? {} : { repositories: { checkout: config.repositories.checkout, token: access.token } }),
  });
  const controller = await createController({
    config,
    secrets,
    logger,
    backend,
    ...(options.observers ? { observers: options.observers } : {}),
  });
  controllers.push(controller);
  await controller.start();
  const port = (controller.sources[0] as { server?: { address?: { port: number } } }).server?.address?.port ?? 0;
  const stop = async () => {
    controllers.splice(controllers.indexOf(controller), 1);
    await controller.stop();
  };
  return { controller, port, backend, stop };
}
