import { Job } from "kubernetes-models/batch/v1";
import { describe, expect, it } from "vitest";
import type { RunSpec } from "../../../src/execution/execution-backend.js";
import { repositoriesConfig } from "../../../src/repositories/repositories-schema.js";
import { createRepositoryAccess } from "../../../src/repositories/repository-access.js";
import { repositoryBackend } from "../../../src/repositories/repository-backend.js";
import { type FakeCodehostA, startFakeCodehostA } from "../../sources/codehost-a/fake-codehost-a.js";
import { createFakePulls, type FakePulls } from "../../sources/codehost-a/fake-pulls.js";
import { onCleanup, recordingHooks } from "../helpers/local-setup.js";
import { KINDS } from "./fake-api/status.js";
import { validateManifest } from "./fake-api/validate.js";
import { TICKET_BRANCH } from "./helpers/checkout-setup.js";
import { agentSpec, kubeBackend, resultMessage, runPod, startFake } from "./helpers/kube-setup.js";

const TOKEN = "ghp_kubePullRequestTEST0123456789abcd";
const SHA = "3f786850e387550fdab836ed7e6dc881de23001b";
const FOLLOW_UP_BRANCH = "errand/42-fix-the-login-page-take-one";

/** The Kubernetes backend with repository access: the strict fake cluster and code host A (acme/web) with pull requests. */
async function rig(pullRequests: { draft?: boolean; when_no_changes?: "succeed" | "fail" } = {}) {
  const api: FakeCodehostA = await startFakeCodehostA({ owner: "acme", name: "web", token: TOKEN });
  onCleanup(() => api.close());
  const pulls: FakePulls = createFakePulls({
    owner: "acme",
    repo: "web",
    accepts: (token) => token === TOKEN,
    branchExists: () => true,
  });
  api.routes.push(pulls.route);
  const config = repositoriesConfig.parse({
    codehost_a: { api_base_url: api.url, token_secret: "repo-token", pull_requests: pullRequests },
  });
  const access = createRepositoryAccess(config.codehostA, { "repo-token": TOKEN });
  if (access === undefined) throw new Error("no access");
  const kube = kubeBackend(await startFake(), { repositories: { checkout: config.checkout, token: access.token } });
  const backend = repositoryBackend(kube.backend, {
    config,
    access,
    workspaceDir: "/nonexistent",
    secrets: { "repo-token": TOKEN },
    tokenEnv: () => [],
    logger: kube.logger,
  });
  /** Starts `spec`, runs its pod to the end with the wrapper's `gitLine` and `result`; resolves with handle and outcome. */
  const run = async (gitLine: string, result: Record<string, unknown>, spec: RunSpec & { jobName: string }) => {
    const handle = await backend.start(spec, recordingHooks());
    const env = await runPod(kube.fake, spec.jobName);
    kube.fake.finishPod(spec.jobName, { exitCode: 0, message: `${gitLine}\n${resultMessage(result)}` });
    return { handle, env, outcome: await handle.done };
  };
  return { api, pulls, kube, backend, run, spec: () => agentSpec(kube.engine) };
}

describe("kubernetes backend: the controller finishes the branch the pod pushed", () => {
  it("opens the pull request of a pushed branch, with the run's body, as a draft, and records the branch", async () => {
    const { pulls, run, spec: make } = await rig();
    const spec = make();
    const { handle, outcome } = await run(
      `errand-git pushed ${TICKET_BRANCH} ${SHA}`,
      { success: true, summary: `Fixed the form; see /workspace/src/login.ts (token ${TOKEN})` },
      spec,
    );
    expect(handle.branch).toBe(TICKET_BRANCH);
    expect(pulls.pulls).toHaveLength(1);
    const [pr] = pulls.pulls;
    expect(pr).toMatchObject({ head: TICKET_BRANCH, base: "main", draft: true, title: "Fix the login page" });
    expect(pr?.body).toContain(spec.run.id);
    expect(pr?.body).toContain("src/login.ts");
    expect(pr?.body).not.toContain("/workspace/");
    expect(pr?.body).not.toContain(TOKEN);
    expect(outcome.result).toMatchObject({ success: true, pullRequestUrl: pr?.html_url });
  });

  it("opens it ready for review when pull_requests.draft is false", async () => {
    const { pulls, run, spec } = await rig({ draft: false });
    await run(`errand-git pushed ${TICKET_BRANCH} ${SHA}`, { success: true, summary: "done" }, spec());
    expect(pulls.pulls.map((p) => p.draft)).toEqual([false]);
  });

  it("no changes: the run succeeds saying so, or fails when when_no_changes is fail; no pull request", async () => {
    const succeed = await rig();
    const ok = await succeed.run(
      `errand-git no-changes ${TICKET_BRANCH}`,
      { success: true, summary: "nothing to do" },
      succeed.spec(),
    );
    expect(ok.outcome.result).toMatchObject({
      success: true,
      summary: "no changes\n\nnothing to do",
      pullRequestUrl: "",
    });
    expect(succeed.pulls.pulls).toEqual([]);
    const fail = await rig({ when_no_changes: "fail" });
    const failed = await fail.run(
      `errand-git no-changes ${TICKET_BRANCH}`,
      { success: true, summary: "" },
      fail.spec(),
    );
    expect(failed.outcome.result).toMatchObject({ success: false, failureReason: "no changes" });
    expect(fail.pulls.pulls).toEqual([]);
  });

  it("a failed push fails the run with git's reason and opens nothing", async () => {
    const { pulls, api, run, spec } = await rig();
    const { outcome } = await run(
      `errand-git push-failed ${TICKET_BRANCH} the requested URL returned error: 403`,
      { success: true, summary: "fixed" },
      spec(),
    );
    expect(outcome.result).toMatchObject({
      success: false,
      failureReason: `the push of branch ${TICKET_BRANCH} failed: the requested URL returned error: 403`,
    });
    expect(pulls.pulls).toEqual([]);
    expect(api.arrived.filter((r) => r.includes("/pulls"))).toEqual([]);
  });

  it("records a pull request the agent reported and opens none", async () => {
    const { pulls, api, run, spec } = await rig();
    const url = "https://codehost-a.test/acme/web/pull/9";
    const { outcome } = await run(
      `errand-git pushed ${TICKET_BRANCH} ${SHA}`,
      { success: true, summary: "opened it myself", pull_request_url: url },
      spec(),
    );
    expect(outcome.result).toMatchObject({ success: true, pullRequestUrl: url });
    expect(pulls.pulls).toEqual([]);
    expect(api.arrived.filter((r) => r.includes("/pulls"))).toEqual([]);
  });

  it("a follow-up checks out its pull request's branch in the pod, and its push finds that pull request", async () => {
    const { pulls, run, kube, spec: make } = await rig();
    const existing = {
      number: 1,
      title: "Fix the login page (#42)",
      body: "the first run",
      head: FOLLOW_UP_BRANCH,
      base: "main",
      draft: true,
      state: "open" as const,
      html_url: "https://codehost-a.test/acme/web/pull/1",
    };
    pulls.pulls.push(existing);
    const base = make();
    const followUp = {
      pullRequest: { number: 1, url: existing.html_url, branch: FOLLOW_UP_BRANCH },
      trigger: "review" as const,
      comments: [{ author: "reviewer", body: "rename the button" }],
    };
    const spec = { ...base, run: { ...base.run, followUp } };
    const { handle, env, outcome } = await run(
      `errand-git pushed ${FOLLOW_UP_BRANCH} ${SHA}`,
      { success: true, summary: "renamed" },
      spec,
    );
    expect(handle.branch).toBe(FOLLOW_UP_BRANCH);
    expect(env?.ERRAND_GIT_BRANCH).toBe(FOLLOW_UP_BRANCH);
    const job = kube.fake.job(spec.jobName);
    expect(() => new Job(job as ConstructorParameters<typeof Job>[0]).validate()).not.toThrow();
    expect(() => validateManifest(KINDS.jobs, job, "errand")).not.toThrow();
    const init = job?.spec.template.spec.initContainers?.[0]?.env ?? [];
    expect(init).toContainEqual({ name: "ERRAND_GIT_BRANCH", value: FOLLOW_UP_BRANCH });
    expect(init).toContainEqual({ name: "ERRAND_GIT_EXISTING", value: "1" });
    expect(outcome.result).toMatchObject({ success: true, pullRequestUrl: existing.html_url });
    expect(pulls.pulls).toEqual([existing]);
  });

  it("a run re-attached after a restart gets the pull request of the branch its pod pushed meanwhile", async () => {
    const { pulls, kube, backend, spec: make } = await rig();
    const spec = make();
    const first = await backend.start(spec, recordingHooks());
    await runPod(kube.fake, spec.jobName);
    first.detach?.();
    expect((await first.done).detached).toBe(true);
    expect(pulls.pulls).toEqual([]);
    kube.fake.finishPod(spec.jobName, {
      exitCode: 0,
      message: `errand-git pushed ${TICKET_BRANCH} ${SHA}\n${resultMessage({ success: true, summary: "done meanwhile" })}`,
    });
    const stored = { ...spec.run, attachment: { ...first.attachment }, logRef: first.logRef, branch: TICKET_BRANCH };
    const plan = await backend.recover(stored, recordingHooks(), spec);
    if (plan.action !== "reattach") throw new Error(`not re-attached: ${plan.action}`);
    const outcome = await plan.handle.done;
    expect(pulls.pulls.map((p) => p.head)).toEqual([TICKET_BRANCH]);
    expect(outcome.result).toMatchObject({ success: true, pullRequestUrl: pulls.pulls[0]?.html_url });
  });
});
