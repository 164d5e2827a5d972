import { describe, expect, it } from "vitest";
import { recordingHooks } from "../helpers/local-setup.js";
import { agentSpec, kubeBackend, resultMessage, runPod, startFake } from "./helpers/kube-setup.js";

async function running() {
  const rig = kubeBackend(await startFake());
  const spec = agentSpec(rig.engine);
  const hooks = recordingHooks();
  const handle = await rig.backend.start(spec, hooks);
  await runPod(rig.fake, spec.jobName);
  rig.fake.log(spec.jobName, "::progress:: working");
  await hooks.progress("working");
  return { ...rig, spec, handle };
}

describe("kubernetes backend: stopping runs", () => {
  it("cancel deletes the Job with foreground propagation: its pod and ConfigMap go first, then the Job", async () => {
    const { fake, spec, handle } = await running();
    const uid = handle.attachment.uid;
    await handle.stop("cancel");
    expect(fake.job(spec.jobName)).toBeUndefined();
    const deletes = fake.requests.filter((r) => r.method === "DELETE");
    expect(deletes).toHaveLength(1);
    expect(deletes[0]).toMatchObject({ path: `/apis/batch/v1/namespaces/errand/jobs/${spec.jobName}`, status: 200 });
    expect(deletes[0]?.query.get("propagationPolicy")).toBe("Foreground");
    expect(deletes[0]?.body).toMatchObject({ propagationPolicy: "Foreground", preconditions: { uid } });
    const order = fake
      .events()
      .filter((e) => e.type === "DELETED")
      .map((e) => e.resource);
    expect(order).toEqual(["pods", "configmaps", "jobs"]);
    const marked = fake
      .events()
      .find((e) => e.resource === "jobs" && e.object.metadata.deletionTimestamp !== undefined);
    expect(marked?.object.metadata.finalizers).toEqual(["foregroundDeletion"]);

    const outcome = await handle.done;
    expect(outcome.stoppedFor).toBe("cancel");
    expect(outcome.result).toMatchObject({ success: false, failureReason: "stopped: cancelled" });
  });

  it("stop is safe to call twice, and after the run ended it deletes nothing", async () => {
    const { fake, handle } = await running();
    await Promise.all([handle.stop("timeout"), handle.stop("cancel")]);
    expect((await handle.done).stoppedFor).toBe("timeout");
    expect(fake.requests.filter((r) => r.method === "DELETE")).toHaveLength(1);

    const again = await running();
    again.fake.finishPod(again.spec.jobName, { exitCode: 0, message: resultMessage({ success: true }) });
    expect((await again.handle.done).result.success).toBe(true);
    await again.handle.stop("cancel");
    expect(again.fake.requests.filter((r) => r.method === "DELETE")).toEqual([]);
    expect((await again.handle.done).stoppedFor).toBeUndefined();
  });

  it("a Job already gone when stopped (404) ends the run at once", async () => {
    const { fake, spec, handle, backend } = await running();
    const { BatchV1Api } = await import("@kubernetes/client-node");
    // Deleted behind the backend's back, and the watch has not told it yet.
    fake.suspendWatches();
    await fake
      .kubeConfig()
      .makeApiClient(BatchV1Api)
      .deleteNamespacedJob({ name: spec.jobName, namespace: "errand", propagationPolicy: "Background" });
    await handle.stop("cancel");
    expect((await handle.done).stoppedFor).toBe("cancel");
    expect(fake.requests.filter((r) => r.method === "DELETE").map((r) => r.status)).toEqual([200, 404]);
    fake.resumeWatches();
    await backend.close();
  });

  it("close() stops the runs still running", async () => {
    const { fake, spec, handle, backend } = await running();
    await backend.close();
    expect((await handle.done).stoppedFor).toBe("shutdown");
    expect(fake.job(spec.jobName)).toBeUndefined();
    await expect(backend.start(agentSpec(kubeBackend(fake).engine), recordingHooks())).rejects.toThrow(
      /after the kubernetes backend was closed/,
    );
  });

  it("detach (a controller shutting down) leaves the Job running and ends the handle at once; a stop afterwards deletes nothing", async () => {
    const { fake, spec, handle } = await running();
    handle.detach?.();
    expect(await handle.done).toMatchObject({ detached: true, stoppedFor: undefined });
    await handle.stop("shutdown");
    expect(fake.requests.filter((r) => r.method === "DELETE")).toEqual([]);
    expect(fake.job(spec.jobName)).toBeDefined();
  });

  it("detach does not undo a stop already begun (a cancel during shutdown still deletes the Job)", async () => {
    const { fake, spec, handle } = await running();
    const stopping = handle.stop("cancel");
    handle.detach?.();
    await stopping;
    const outcome = await handle.done;
    expect(outcome).toMatchObject({ stoppedFor: "cancel" });
    expect(outcome.detached).toBeUndefined();
    expect(fake.job(spec.jobName)).toBeUndefined();
  });
});
