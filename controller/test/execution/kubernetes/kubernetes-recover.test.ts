import { BatchV1Api } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import type { RunHandle } from "../../../src/execution/execution-backend.js";
import type { TaskRun } from "../../../src/runs/task-run.js";
import { recordingHooks } from "../helpers/local-setup.js";
import type { FakeKubeApi } from "./fake-api/fake-kube-api.js";
import { agentSpec, eventually, kubeBackend, resultMessage, runPod, startFake } from "./helpers/kube-setup.js";

const RESTARTED = "controller restarted while the run was running";

/** The run as the store kept it while Running. */
function stored(run: TaskRun, handle: RunHandle): TaskRun {
  return { ...run, backend: "kubernetes", logRef: handle.logRef, attachment: { ...handle.attachment } };
}

/** A run started by a first controller, its pod running and past its first progress line. */
async function startedElsewhere() {
  const fake = await startFake();
  const first = kubeBackend(fake);
  const spec = agentSpec(first.engine);
  const hooks = recordingHooks();
  const handle = await first.backend.start(spec, hooks);
  await runPod(fake, spec.jobName);
  fake.log(spec.jobName, "::progress:: before the restart", "::cost:: 0.20");
  await hooks.progress("before the restart");
  return { fake, spec, run: stored(spec.run, handle), handle };
}

function deleteJob(fake: FakeKubeApi, name: string) {
  return fake
    .kubeConfig()
    .makeApiClient(BatchV1Api)
    .deleteNamespacedJob({ name, namespace: "errand", propagationPolicy: "Background" });
}

describe("kubernetes backend: runs found Running after a restart", () => {
  it("re-attaches to a Job that still runs: the watch follows it to its end, progress already told is not told again", async () => {
    const { fake, spec, run } = await startedElsewhere();
    const second = kubeBackend(fake);
    const hooks = recordingHooks();
    const plan = await second.backend.recover(run, hooks, spec);
    expect(plan.action).toBe("reattach");
    if (plan.action !== "reattach") return;
    expect(plan.handle.attachment).toEqual(run.attachment);
    expect(plan.handle.logRef).toBe(run.logRef);
    await eventually("the cost logged before the restart", () => hooks.events.find((e) => e.kind === "cost"));
    fake.log(spec.jobName, "::progress:: after the restart");
    await hooks.progress("after the restart");
    fake.finishPod(spec.jobName, {
      exitCode: 0,
      message: resultMessage({
        success: true,
        summary: "re-attached",
        pull_request_url: "https://codehost.example/acme/web/pull/3",
      }),
    });
    const outcome = await plan.handle.done;
    expect(outcome.result).toMatchObject({
      success: true,
      summary: "re-attached",
      pullRequestUrl: "https://codehost.example/acme/web/pull/3",
      costUsd: 0.2,
    });
    expect(hooks.events.filter((e) => e.kind === "progress").map((e) => (e.kind === "progress" ? e.text : ""))).toEqual(
      ["after the restart"],
    );
    // Re-attached, never made again.
    expect(fake.requests.filter((r) => r.method === "POST" && r.path.endsWith("/jobs"))).toHaveLength(1);
  });

  it("finds the Job of a run whose controller died before recording it, by the run's Job name and run-id annotation", async () => {
    const { fake, spec, run } = await startedElsewhere();
    const unrecorded: TaskRun = { ...run, attachment: undefined, logRef: undefined };
    const plan = await kubeBackend(fake).backend.recover(unrecorded, recordingHooks(), spec);
    expect(plan.action).toBe("reattach");
    if (plan.action !== "reattach") return;
    expect(plan.handle.attachment).toEqual(run.attachment);
    fake.finishPod(spec.jobName, {
      exitCode: 0,
      message: resultMessage({
        success: true,
        summary: "found",
        pull_request_url: "https://codehost.example/acme/web/pull/4",
      }),
    });
    expect((await plan.handle.done).result).toMatchObject({ success: true, summary: "found" });
    expect(fake.requests.filter((r) => r.method === "POST" && r.path.endsWith("/jobs"))).toHaveLength(1);
  });

  it("fails a run whose controller died before creating its Job", async () => {
    const fake = await startFake();
    const { backend, engine } = kubeBackend(fake);
    const spec = agentSpec(engine);
    const plan = await backend.recover({ ...spec.run, backend: "kubernetes" }, recordingHooks(), spec);
    expect(plan).toEqual({
      action: "fail",
      reason: `${RESTARTED}; no Job was recorded for it and none was made (the controller stopped before creating it)`,
    });
  });

  it("a re-attached run can still be stopped, deleting its Job", async () => {
    const { fake, spec, run } = await startedElsewhere();
    const plan = await kubeBackend(fake).backend.recover(run, recordingHooks(), spec);
    if (plan.action !== "reattach") throw new Error(`expected reattach, got ${plan.action}`);
    await plan.handle.stop("cancel");
    expect((await plan.handle.done).stoppedFor).toBe("cancel");
    expect(fake.job(spec.jobName)).toBeUndefined();
  });

  it("a Job that finished while the controller was down gives its result at once", async () => {
    const { fake, spec, run } = await startedElsewhere();
    fake.finishPod(spec.jobName, {
      exitCode: 3,
      message: resultMessage({ success: false, failure_reason: "could not reproduce" }),
    });
    const plan = await kubeBackend(fake).backend.recover(run, recordingHooks(), spec);
    if (plan.action !== "reattach") throw new Error(`expected reattach, got ${plan.action}`);
    const { result } = await plan.handle.done;
    expect(result).toMatchObject({
      success: false,
      failureReason: "could not reproduce (the engine exited with code 3)",
      costUsd: 0.2,
    });
  });

  it("a run whose Job is gone fails, saying so", async () => {
    const { fake, spec, run } = await startedElsewhere();
    await deleteJob(fake, spec.jobName);
    const plan = await kubeBackend(fake).backend.recover(run, recordingHooks(), spec);
    expect(plan).toEqual({
      action: "fail",
      reason: `${RESTARTED}; its Job errand/${spec.jobName} is gone (deleted, or removed by ttlSecondsAfterFinished after it finished), so its result is lost`,
    });
  });

  it("a Job name now held by another Job is left alone and the run fails", async () => {
    const { fake, spec, run } = await startedElsewhere();
    const plan = await kubeBackend(fake).backend.recover(
      { ...run, attachment: { ...run.attachment, uid: "00000000-0000-0000-0000-000000000000" } },
      recordingHooks(),
      spec,
    );
    expect(plan.action).toBe("fail");
    expect(plan.action === "fail" && plan.reason).toMatch(
      new RegExp(
        `^${RESTARTED}; the name of its Job errand/${spec.jobName} now belongs to another Job \\(uid .+\\), which was left alone$`,
      ),
    );
    expect(fake.job(spec.jobName)).toBeDefined();
  });

  it("a run with a Job in another namespace fails (a run without a recorded Job is looked up: above)", async () => {
    const { fake, spec, run } = await startedElsewhere();
    const { backend } = kubeBackend(fake);
    const elsewhere = await backend.recover(
      { ...run, attachment: { ...run.attachment, namespace: "default" } },
      recordingHooks(),
      spec,
    );
    expect(elsewhere).toEqual({
      action: "fail",
      reason: `${RESTARTED}; its Job default/${spec.jobName} is outside execution.kubernetes.namespace (errand) and was left alone`,
    });
  });

  it("a start the controller did not record (it died after creating the Job) adopts the Job instead of making a second", async () => {
    const { fake, spec, handle } = await startedElsewhere();
    const again = await kubeBackend(fake).backend.start(spec, recordingHooks());
    expect(again.attachment).toEqual(handle.attachment);
    const creates = fake.requests.filter((r) => r.method === "POST" && r.path.endsWith("/jobs"));
    expect(creates.map((r) => r.status)).toEqual([201, 409]);
    fake.finishPod(spec.jobName, { exitCode: 0, message: resultMessage({ success: true }) });
    expect((await again.done).result.success).toBe(true);
  });

  it("a Job of the same name that is not this run's is not adopted", async () => {
    const { fake, spec } = await startedElsewhere();
    const { backend } = kubeBackend(fake);
    const client = fake.kubeConfig().makeApiClient(BatchV1Api);
    const existing = await client.readNamespacedJob({ name: spec.jobName, namespace: "errand" });
    expect(existing.metadata?.annotations?.["errand.dev/run-id"]).toBe(spec.run.id);
    // Another id with the same Job name (Job names are lowercase).
    const stranger = { ...spec, run: { ...spec.run, id: spec.run.id.toUpperCase() } };
    const error = await backend.start(stranger, recordingHooks()).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `engine "agent" could not be started: a Job named ${spec.jobName} already exists in namespace errand and is not this run's`,
    );
    expect((error as { hint?: string }).hint).toBe(
      `delete it (kubectl delete job -n errand ${spec.jobName}) and retry the run`,
    );
  });
});
