import { describe, expect, it } from "vitest";
import { ControllerErrorCode } from "../../../src/errors.js";
import { recordingHooks } from "../helpers/local-setup.js";
import { agentSpec, eventually, kubeBackend, resultMessage, runPod, startFake } from "./helpers/kube-setup.js";

/** A started run whose container runs, its log followed by the backend. */
async function running(options: Parameters<typeof kubeBackend>[1] = {}) {
  const rig = kubeBackend(await startFake(), options);
  const spec = agentSpec(rig.engine);
  const hooks = recordingHooks();
  const handle = await rig.backend.start(spec, hooks);
  await runPod(rig.fake, spec.jobName);
  rig.fake.log(spec.jobName, "::progress:: working");
  await hooks.progress("working");
  return { ...rig, spec, handle };
}

describe("kubernetes backend: how runs fail", () => {
  it("an engine that reports failure and exits non-zero fails with its own reason", async () => {
    const { fake, spec, handle } = await running();
    fake.finishPod(spec.jobName, {
      exitCode: 3,
      message: resultMessage({ success: false, failure_reason: "the tests still fail" }),
    });
    const { result } = await handle.done;
    expect(result.success).toBe(false);
    expect(result.failureReason).toBe("the tests still fail (the engine exited with code 3)");
  });

  it("an engine that exits 0 without a result fails, saying so", async () => {
    const { fake, spec, handle } = await running();
    fake.finishPod(spec.jobName, { exitCode: 0, message: "errand-result none\n" });
    expect((await handle.done).result.failureReason).toBe("the engine exited 0 without writing $ERRAND_RESULT_FILE");
  });

  it("an OOM kill names the memory limit to raise", async () => {
    const { fake, spec, handle } = await running({
      config: { resources: { requests: { memory: "1Gi" }, limits: { memory: "2Gi" } } },
    });
    fake.oomKill(spec.jobName, "errand-result none\n");
    const { result } = await handle.done;
    expect(result.success).toBe(false);
    expect(result.failureReason).toMatch(
      /^the engine's container ran out of memory and was killed \(OOMKilled, memory limit 2Gi\); raise execution\.kubernetes\.resources\.limits\.memory; the engine exited with code 137/,
    );
  });

  it("a Job past its activeDeadlineSeconds fails with DeadlineExceeded explained", async () => {
    const { fake, spec, handle } = await running();
    expect(fake.job(spec.jobName).spec.activeDeadlineSeconds).toBe(60 * 60 + 300);
    await fake.exceedDeadline(spec.jobName);
    const { result } = await handle.done;
    expect(result.failureReason).toMatch(
      /^the Job ran longer than its activeDeadlineSeconds \(3900 s\) and Kubernetes stopped it/,
    );
  });

  it("a lost node (the pod deleted before its container ended) fails the run with the disruption", async () => {
    const { fake, spec, handle } = await running();
    await fake.loseNode(spec.jobName);
    const { result } = await handle.done;
    expect(result.failureReason).toMatch(
      /^the engine's pod was lost before it ended \(DeletionByTaintManager: Taint manager: deleting due to NoExecute taint\): its node failed/,
    );
  });

  it("a Job deleted by someone else fails the run", async () => {
    const { fake, spec, handle } = await running();
    const core = fake.kubeConfig();
    const { BatchV1Api } = await import("@kubernetes/client-node");
    await core
      .makeApiClient(BatchV1Api)
      .deleteNamespacedJob({ name: spec.jobName, namespace: "errand", propagationPolicy: "Background" });
    const { result, stoppedFor } = await handle.done;
    expect(stoppedFor).toBeUndefined();
    expect(result.failureReason).toMatch(/^its Job was deleted before the engine ended/);
  });

  it("a container that can never be created (its Secret is missing) fails at once and its Job is deleted", async () => {
    const rig = kubeBackend(await startFake(), { engine: { apiKeySecret: "missing-key" } });
    const spec = agentSpec(rig.engine);
    const handle = await rig.backend.start(spec, recordingHooks());
    expect(await runPod(rig.fake, spec.jobName)).toBeUndefined();
    const { result } = await handle.done;
    expect(result.failureReason).toBe(
      'the engine\'s container could not be created (CreateContainerConfigError: secret "missing-key" not found); usually a missing Secret or key: see docs/kubernetes-backend.md, "Secrets"',
    );
    await eventually("the Job to be deleted", () => (rig.fake.job(spec.jobName) === undefined ? true : undefined));
  });

  it("a result file too large for the termination message is named", async () => {
    const { fake, spec, handle } = await running();
    fake.finishPod(spec.jobName, { exitCode: 0, message: "errand-result too-large 9000\n" });
    expect((await handle.done).result.failureReason).toContain(
      "the result file is 9000 bytes; the kubernetes backend reads it from the pod's termination message, which holds 4096 bytes",
    );
  });

  it("a container the runtime could not start is explained", async () => {
    const { fake, spec, handle } = await running();
    fake.finishPod(spec.jobName, {
      exitCode: 128,
      reason: "StartError",
      message: 'exec: "/bin/sh": stat /bin/sh: no such file or directory',
    });
    expect((await handle.done).result.failureReason).toMatch(
      /^the engine's container could not start \(StartError: exec: "\/bin\/sh": stat \/bin\/sh: no such file or directory\); the image needs \/bin\/sh/,
    );
  });

  it("an engine without an image does not start, and nothing is created", async () => {
    const { fake, backend, engine } = kubeBackend(await startFake(), { engine: { image: undefined } });
    const error = await backend.start(agentSpec(engine), recordingHooks()).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: ControllerErrorCode.EngineStart,
      message: 'engine "agent" has no container image; the kubernetes backend runs each engine in a container',
      hint: "set engines.agent.image to an image that has the engine's command and /bin/sh",
    });
    expect(fake.requests.filter((r) => r.method === "POST")).toEqual([]);
  });

  it("a namespace that does not exist is a start error naming it", async () => {
    const { backend, engine } = kubeBackend(await startFake(), { config: { namespace: "nowhere" } });
    const error = await backend.start(agentSpec(engine), recordingHooks()).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: ControllerErrorCode.EngineStart,
      hint: "create namespace nowhere, or set execution.kubernetes.namespace",
    });
    expect((error as Error).message).toMatch(
      /creating Job nowhere\/errand-run-.* failed: namespaces "nowhere" not found/,
    );
  });

  it("an API server that cannot be reached is a start error saying what to check", async () => {
    const fake = await startFake();
    const { backend, engine } = kubeBackend(fake);
    await fake.close();
    const error = await backend.start(agentSpec(engine), recordingHooks()).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: ControllerErrorCode.EngineStart,
      hint: "check that the Kubernetes API server is reachable (execution.kubernetes.kubeconfig, or the in-cluster service account)",
    });
  });

  it("a setting the API server refuses (422) is a start error with its causes", async () => {
    const { backend, engine } = kubeBackend(await startFake(), {
      config: { resources: { requests: { memory: "8Gi" }, limits: { memory: "2Gi" } } },
    });
    const error = await backend.start(agentSpec(engine), recordingHooks()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ControllerErrorCode.EngineStart });
    expect((error as Error).message).toContain(
      'spec.template.spec.containers[0].resources.requests[memory]: Invalid value: "8Gi": must be less than or equal to memory limit of 2Gi',
    );
  });

  it("an API key written into the engine's settings is refused before anything reaches the cluster", async () => {
    const { fake, backend, engine } = kubeBackend(await startFake(), {
      engine: { args: ["--key", "sk-test-0123456789abcdefABCDEF"] },
    });
    const error = await backend.start(agentSpec(engine), recordingHooks()).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: ControllerErrorCode.EngineStart,
      message:
        'engine "agent" was not started: its API key appears in the Job manifest, which would be stored in the cluster in clear',
    });
    expect(fake.requests.filter((r) => r.method === "POST")).toEqual([]);
  });
});
