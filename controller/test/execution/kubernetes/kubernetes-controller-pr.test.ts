import { Job } from "kubernetes-models/batch/v1";
import { describe, expect, it } from "vitest";
import { inputConfigMapName, jobNameFor } from "../../../src/kube/kubernetes-names.js";
import { createHarness, finished, postTicket, running, ticketBody } from "../../controller/harness.js";
import { startFakeCodehostA } from "../../sources/codehost-a/fake-codehost-a.js";
import { createFakePulls } from "../../sources/codehost-a/fake-pulls.js";
import { onCleanup } from "../helpers/local-setup.js";
import { KINDS } from "./fake-api/status.js";
import { validateManifest } from "./fake-api/validate.js";
import { kubernetesController } from "./helpers/kube-controller.js";
import { eventually, resultMessage, startFake } from "./helpers/kube-setup.js";

const TOKEN = "ghp_kubeControllerPrTEST0123456789ab";
const SHA = "9c1185a5c5e9fc54612808977ee8f548b2258d31";

describe("the controller with the kubernetes backend and repository access", () => {
  it("prompts for the checkout, records the run's branch, and opens the pull request of the pushed branch", async () => {
    const api = await startFakeCodehostA({ token: TOKEN });
    onCleanup(() => api.close());
    const pulls = createFakePulls({
      owner: "acme",
      repo: "shop",
      accepts: (t) => t === TOKEN,
      branchExists: () => true,
    });
    api.routes.push(pulls.route);
    const fake = await startFake();
    const extra = `repositories:\n  codehost_a:\n    api_base_url: ${api.url}\n    token_secret: repo-token\n`;
    const h = createHarness({ engine: ["/opt/agent/run.sh"], extra });
    const logs: string[] = [];
    const { controller, port } = await kubernetesController(h, fake, {
      logs,
      env: { ERRAND_SECRET_REPO_TOKEN: TOKEN },
    });

    const { id, body } = ticketBody({ title: "Fix the cart" });
    expect((await postTicket(port, body)).status).toBe(200);
    const run = await running(controller.store, id);
    const jobName = jobNameFor(run.id);
    const branch = `errand/${id}-fix-the-cart`;
    const job = fake.job(jobName);
    expect(() => new Job(job as ConstructorParameters<typeof Job>[0]).validate()).not.toThrow();
    expect(() => validateManifest(KINDS.jobs, job, "errand")).not.toThrow();
    expect(job?.spec.template.spec.initContainers?.[0]?.env).toContainEqual({
      name: "ERRAND_GIT_BRANCH",
      value: branch,
    });
    const prompt = String(fake.configMap(inputConfigMapName(jobName))?.data?.["prompt.md"]);
    expect(prompt).toContain("Do not push and do not open a pull request");
    expect(await eventually("the branch", async () => (await controller.store.getRun(run.id))?.branch)).toBe(branch);

    await eventually("the pod", () => fake.pod(jobName));
    fake.startPod(jobName);
    fake.finishPod(jobName, {
      exitCode: 0,
      message: `errand-git pushed ${branch} ${SHA}\n${resultMessage({ success: true, summary: "Cart fixed." })}`,
    });
    const done = await finished(controller.store, id);
    expect(pulls.pulls).toHaveLength(1);
    expect(pulls.pulls[0]).toMatchObject({ head: branch, base: "main", draft: true, title: "Fix the cart" });
    expect(done).toMatchObject({ state: "Succeeded", branch });
    expect(done.result).toMatchObject({ success: true, pullRequestUrl: pulls.pulls[0]?.html_url });
    expect(logs.join("\n")).not.toContain(TOKEN);
  });
});
