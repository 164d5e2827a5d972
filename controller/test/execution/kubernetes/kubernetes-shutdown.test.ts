import { createLogger } from "@errand/channel-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { loadControllerConfig } from "../../../src/config/load-controller-config.js";
import { type Controller, createController } from "../../../src/controller.js";
import { createKubernetesBackend } from "../../../src/execution/kubernetes/kubernetes-backend.js";
import { jobNameFor } from "../../../src/execution/kubernetes/kubernetes-names.js";
import { resolveSecrets } from "../../../src/secrets/resolve-secrets.js";
import { createHarness, finished, postTicket, running, SECRET_ENV, ticketBody } from "../../controller/harness.js";
import type { FakeKubeApi } from "./fake-api/fake-kube-api.js";
import { API_KEY, eventually, resultMessage, startFake } from "./helpers/kube-setup.js";

const controllers: Controller[] = [];
afterEach(async () => {
  for (const c of controllers.splice(0)) await c.stop();
});

/** A controller in-process on the harness's store and the fake cluster, with a short shutdown grace. */
async function kubernetesController(h: ReturnType<typeof createHarness>, fake: FakeKubeApi, logs: string[]) {
  const env = { ...SECRET_ENV, ERRAND_SECRET_AGENT_KEY: API_KEY };
  const { config } = await loadControllerConfig(h.configFile, { env });
  const engine = config.engines.byName.fixture;
  if (engine === undefined) throw new Error("the harness has no fixture engine");
  Object.assign(engine, { image: "registry.example/agent:1.2", authMethod: "api_key", apiKeySecret: "agent-key" });
  config.execution.backend = "kubernetes";
  config.ops.shutdownGraceMs = 200;
  const secrets = resolveSecrets(config, { env });
  const logger = createLogger({ level: "debug", write: (line) => logs.push(line), secrets: Object.values(secrets) });
  const backend = createKubernetesBackend({
    config: config.execution.kubernetes,
    engines: config.engines.byName,
    maxJobDurationMinutes: config.guardrails.maxJobDurationMinutes,
    secrets: Object.values(secrets),
    logger,
    kubeConfig: fake.kubeConfig(),
    retryMs: 20,
  });
  const controller = await createController({ config, secrets, logger, backend });
  controllers.push(controller);
  await controller.start();
  const port = (controller.sources[0] as { server?: { address?: { port: number } } }).server?.address?.port ?? 0;
  return { controller, port };
}

describe("a clean shutdown with the kubernetes backend (a rolling update)", () => {
  it("leaves the Jobs still running after the grace period, and their runs Running; the next controller re-attaches and completes each once", async () => {
    const fake = await startFake();
    const h = createHarness({ engine: ["/opt/agent/run.sh"] });
    const firstLogs: string[] = [];
    const first = await kubernetesController(h, fake, firstLogs);
    const { id, body } = ticketBody();
    expect((await postTicket(first.port, body)).status).toBe(200);
    const run = await running(first.controller.store, id);
    const jobName = jobNameFor(run.id);
    await eventually("the pod", () => fake.pod(jobName));
    fake.startPod(jobName);
    fake.log(jobName, "::progress:: before the rolling update");

    await first.controller.stop();
    controllers.splice(controllers.indexOf(first.controller), 1);
    // The Job was not deleted (no DELETE reached the API), and it still runs.
    expect(fake.requests.filter((r) => r.method === "DELETE")).toEqual([]);
    expect(fake.job(jobName)).toBeDefined();
    expect(firstLogs.join("\n")).toContain("grace period over; leaving the runs still running to the next controller");
    expect(firstLogs.join("\n")).toContain("left the run's Job running for the next controller to re-attach");

    const secondLogs: string[] = [];
    const second = await kubernetesController(h, fake, secondLogs);
    const kept = await second.controller.store.getRun(run.id);
    expect(kept?.state).toBe("Running");
    await eventually("the re-attachment", () => (secondLogs.join("\n").includes("re-attached a run left running by the previous controller") ? true : undefined));
    fake.log(jobName, "::progress:: after the rolling update");
    fake.finishPod(jobName, { exitCode: 0, message: resultMessage({ success: true, summary: "Survived the update.", pull_request_url: "https://github.com/acme/shop/pull/13" }) });

    const done = await finished(second.controller.store, id);
    expect(done).toMatchObject({ state: "Succeeded", result: { success: true, summary: "Survived the update." } });
    const steps = await second.controller.store.transitions(done.id);
    expect(steps.map((s) => [s.from, s.to])).toEqual([[undefined, "Queued"], ["Queued", "Running"], ["Running", "Succeeded"]]);
    // One Job, created once, for one run of the ticket.
    expect(fake.requests.filter((r) => r.method === "POST" && r.path.endsWith("/jobs"))).toHaveLength(1);
    expect(await second.controller.store.listRuns({ limit: 10 })).toHaveLength(1);
  }, 60_000);
});
