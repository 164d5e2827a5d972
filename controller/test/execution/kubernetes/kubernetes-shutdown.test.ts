import { describe, expect, it } from "vitest";
import { jobNameFor } from "../../../src/kube/kubernetes-names.js";
import { createHarness, finished, postTicket, running, ticketBody } from "../../controller/harness.js";
import { kubernetesController } from "./helpers/kube-controller.js";
import { eventually, resultMessage, startFake } from "./helpers/kube-setup.js";

describe("a clean shutdown with the kubernetes backend (a rolling update)", () => {
  it("leaves the Jobs still running after the grace period, and their runs Running; the next controller re-attaches and completes each once", async () => {
    const fake = await startFake();
    const h = createHarness({ engine: ["/opt/agent/run.sh"] });
    const firstLogs: string[] = [];
    const first = await kubernetesController(h, fake, { logs: firstLogs, shutdownGraceMs: 200 });
    const { id, body } = ticketBody();
    expect((await postTicket(first.port, body)).status).toBe(200);
    const run = await running(first.controller.store, id);
    const jobName = jobNameFor(run.id);
    await eventually("the pod", () => fake.pod(jobName));
    fake.startPod(jobName);
    fake.log(jobName, "::progress:: before the rolling update");

    await first.stop();
    // The Job was not deleted (no DELETE reached the API), and it still runs.
    expect(fake.requests.filter((r) => r.method === "DELETE")).toEqual([]);
    expect(fake.job(jobName)).toBeDefined();
    expect(firstLogs.join("\n")).toContain("grace period over; leaving the runs still running to the next controller");
    expect(firstLogs.join("\n")).toContain("left the run's Job running for the next controller to re-attach");

    const secondLogs: string[] = [];
    const second = await kubernetesController(h, fake, { logs: secondLogs, shutdownGraceMs: 200 });
    const kept = await second.controller.store.getRun(run.id);
    expect(kept?.state).toBe("Running");
    await eventually("the re-attachment", () =>
      secondLogs.join("\n").includes("re-attached a run left running by the previous controller") ? true : undefined,
    );
    fake.log(jobName, "::progress:: after the rolling update");
    fake.finishPod(jobName, {
      exitCode: 0,
      message: resultMessage({
        success: true,
        summary: "Survived the update.",
        pull_request_url: "https://github.com/acme/shop/pull/13",
      }),
    });

    const done = await finished(second.controller.store, id);
    expect(done).toMatchObject({ state: "Succeeded", result: { success: true, summary: "Survived the update." } });
    const steps = await second.controller.store.transitions(done.id);
    expect(steps.map((s) => [s.from, s.to])).toEqual([
      [undefined, "Queued"],
      ["Queued", "Running"],
      ["Running", "Succeeded"],
    ]);
    // One Job, created once, for one run of the ticket.
    expect(fake.requests.filter((r) => r.method === "POST" && r.path.endsWith("/jobs"))).toHaveLength(1);
    expect(await second.controller.store.listRuns({ limit: 10 })).toHaveLength(1);
  }, 60_000);
});
