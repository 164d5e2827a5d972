import { describe, expect, it } from "vitest";
import { jobNameFor } from "../../../src/kube/kubernetes-names.js";
import type { RunEvent, RunObserver } from "../../../src/runs/run-event.js";
import { createHarness, finished, postTicket, running, ticketBody } from "../../controller/harness.js";
import { kubernetesController } from "./helpers/kube-controller.js";
import { API_KEY, eventually, resultMessage, startFake } from "./helpers/kube-setup.js";

describe("the controller with the kubernetes backend, in-process, on the fake API", () => {
  it("a signed ticket becomes a Job; its pod's progress and result make the run Succeeded, with its log", async () => {
    const fake = await startFake();
    const h = createHarness({ engine: ["/opt/agent/run.sh"] });
    const logs: string[] = [];
    const { controller, port, backend } = await kubernetesController(h, fake, { logs });

    const { id, body } = ticketBody();
    expect((await postTicket(port, body)).status).toBe(200);
    const run = await running(controller.store, id);
    const jobName = jobNameFor(run.id);
    expect(run).toMatchObject({
      backend: "kubernetes",
      logRef: `kubernetes:errand/job/${jobName}`,
      attachment: { namespace: "errand", jobName },
    });
    expect(fake.job(jobName).metadata.annotations["errand.dev/ticket"]).toBe(`generic:${id}`);

    await eventually("the pod", () => fake.pod(jobName));
    expect(fake.startPod(jobName)?.ERRAND_API_KEY).toBe(API_KEY);
    fake.log(jobName, "::progress:: reading the ticket", "::cost:: 0.05");
    fake.finishPod(jobName, {
      exitCode: 0,
      message: resultMessage({
        success: true,
        summary: "Done in a pod.",
        pull_request_url: "https://github.com/acme/shop/pull/12",
        cost_usd: 0.07,
      }),
    });

    const done = await finished(controller.store, id);
    expect(done.state).toBe("Succeeded");
    expect(done.result).toMatchObject({
      success: true,
      summary: "Done in a pod.",
      pullRequestUrl: "https://github.com/acme/shop/pull/12",
      costUsd: 0.07,
    });
    const steps = await controller.store.transitions(done.id);
    expect(steps.map((s) => [s.from, s.to])).toEqual([
      [undefined, "Queued"],
      ["Queued", "Running"],
      ["Running", "Succeeded"],
    ]);
    expect(steps[1]?.reason).toBe("started on kubernetes with engine fixture");
    expect(await backend.readLog(done, 4096)).toBe("::progress:: reading the ticket\n::cost:: 0.05\n");
    expect(JSON.stringify(fake.job(jobName))).not.toContain(API_KEY);
    expect(logs.join("\n")).not.toContain(API_KEY);
  });

  it("a key and /workspace paths the pod prints reach neither the store nor the observers", async () => {
    const fake = await startFake();
    const h = createHarness({ engine: ["/opt/agent/run.sh"] });
    const events: RunEvent[] = [];
    const observer: RunObserver = {
      name: "recorder",
      observe: async (event) => void events.push(event),
      close: async () => {},
    };
    const { controller, port } = await kubernetesController(h, fake, { logs: [], observers: [observer] });
    const { id, body } = ticketBody();
    expect((await postTicket(port, body)).status).toBe(200);
    const jobName = jobNameFor((await running(controller.store, id)).id);
    await eventually("the pod", () => fake.pod(jobName));
    fake.startPod(jobName);
    fake.log(jobName, `::progress:: key ${API_KEY} at /workspace/src/x.ts`);
    await eventually("the progress event", () => events.find((e) => e.type === "progress"));
    const summary = `used ${API_KEY} in /workspace/src/x.ts`;
    fake.finishPod(jobName, {
      exitCode: 0,
      message: resultMessage({
        success: true,
        summary,
        pull_request_url: `https://x:${API_KEY}@github.com/acme/shop/pull/3`,
      }),
    });

    const done = await finished(controller.store, id);
    expect(done.result).toMatchObject({
      summary: "used [redacted] in src/x.ts",
      pullRequestUrl: "https://x:[redacted]@github.com/acme/shop/pull/3",
    });
    await eventually("the finished event", () => events.find((e) => e.type === "finished"));
    expect(events.find((e) => e.type === "progress")).toMatchObject({ message: "key [redacted] at src/x.ts" });
    expect(JSON.stringify(events)).not.toContain(API_KEY);
  });
});
