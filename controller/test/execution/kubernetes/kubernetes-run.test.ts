import { describe, expect, it } from "vitest";
import { recordingHooks } from "../helpers/local-setup.js";
import { API_KEY, agentSpec, eventually, kubeBackend, resultMessage, runPod, startFake } from "./helpers/kube-setup.js";

describe("kubernetes backend: a run", () => {
  it("creates a Job, is Running once it exists, reports progress from the pod log and reads the result from the termination message", async () => {
    const { fake, backend, engine } = kubeBackend(await startFake());
    const spec = agentSpec(engine);
    const hooks = recordingHooks();
    const handle = await backend.start(spec, hooks);

    const job = fake.job(spec.jobName);
    expect(handle.attachment).toEqual({ namespace: "errand", jobName: spec.jobName, uid: job.metadata.uid });
    expect(handle.logRef).toBe(`kubernetes:errand/job/${spec.jobName}`);
    expect(spec.jobName).toMatch(/^errand-run-[a-z0-9]{26}$/);

    const env = await runPod(fake, spec.jobName);
    // The container gets the key from its Secret; the manifest never held it.
    expect(env?.ERRAND_API_KEY).toBe(API_KEY);
    expect(env).toMatchObject({
      AGENT_MODE: "ci",
      ERRAND_RUN_ID: spec.run.id,
      ERRAND_PROMPT_FILE: "/errand/input/prompt.md",
      ERRAND_RESULT_FILE: "/errand/output/result.json",
      HOME: "/home/errand",
    });
    fake.log(spec.jobName, "cloning the repository", "::progress:: running the tests");
    fake.log(spec.jobName, "::cost:: 0.10");
    await hooks.progress("running the tests");
    await eventually("the cost event", () => hooks.events.find((e) => e.kind === "cost"));

    fake.finishPod(spec.jobName, {
      exitCode: 0,
      message: resultMessage({
        success: true,
        summary: "Fixed the login page.",
        pull_request_url: "https://codehost.example/acme/web/pull/9",
        cost_usd: 0.12,
      }),
    });
    const outcome = await handle.done;
    expect(outcome.stoppedFor).toBeUndefined();
    expect(outcome.result).toMatchObject({
      success: true,
      summary: "Fixed the login page.",
      pullRequestUrl: "https://codehost.example/acme/web/pull/9",
      costUsd: 0.12,
    });
    expect(outcome.result.durationMs).toBeGreaterThanOrEqual(0);
    expect(hooks.events).toEqual([
      { kind: "progress", text: "running the tests", detail: "status" },
      { kind: "cost", usd: 0.1 },
    ]);

    const run = { ...spec.run, attachment: handle.attachment, logRef: handle.logRef };
    expect(await backend.readLog(run, 4096)).toBe(
      "cloning the repository\n::progress:: running the tests\n::cost:: 0.10\n",
    );
    expect(await backend.readLog(run, 20)).toBe("::cost:: 0.10\n");
    expect(fake.problems).toEqual([]);
  });

  it("reads its status from the watches, not by polling each Job", async () => {
    const { fake, backend, engine } = kubeBackend(await startFake());
    const spec = agentSpec(engine);
    const handle = await backend.start(spec, recordingHooks());
    await runPod(fake, spec.jobName);
    for (let i = 0; i < 5; i++) fake.log(spec.jobName, `line ${i}`);
    fake.finishPod(spec.jobName, { exitCode: 0, message: resultMessage({ success: true }) });
    expect((await handle.done).result.success).toBe(true);
    const reads = fake.requests.filter(
      (r) => r.method === "GET" && r.path.includes("/jobs") && r.query.get("watch") !== "true",
    );
    // One list for the watch, at most one look-up of the new Job: nothing per event.
    expect(reads.filter((r) => r.path.endsWith("/jobs"))).toHaveLength(1);
    expect(reads.filter((r) => r.path.endsWith(`/jobs/${spec.jobName}`)).length).toBeLessThanOrEqual(1);
    expect(
      fake.requests
        .filter((r) => r.query.get("watch") === "true")
        .map((r) => r.path.split("/").at(-1))
        .sort(),
    ).toEqual(["jobs", "pods"]);
  });

  it("shares two watches among every run", async () => {
    const { fake, backend, engine } = kubeBackend(await startFake());
    const specs = [agentSpec(engine), agentSpec(engine), agentSpec(engine)];
    const handles = await Promise.all(specs.map((spec) => backend.start(spec, recordingHooks())));
    for (const spec of specs) await runPod(fake, spec.jobName);
    specs.forEach((spec, i) =>
      fake.finishPod(spec.jobName, { exitCode: 0, message: resultMessage({ success: true, summary: `run ${i}` }) }),
    );
    const outcomes = await Promise.all(handles.map((h) => h.done));
    expect(outcomes.map((o) => o.result.summary)).toEqual(["run 0", "run 1", "run 2"]);
    expect(fake.openWatches("jobs")).toBe(1);
    expect(fake.openWatches("pods")).toBe(1);
  });
});
