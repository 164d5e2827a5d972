import { Job } from "kubernetes-models/batch/v1";
import { Secret } from "kubernetes-models/v1";
import { describe, expect, it } from "vitest";
import { ControllerErrorCode } from "../../../src/errors.js";
import { CHECKOUT_SCRIPT } from "../../../src/execution/kubernetes/checkout-script.js";
import { PUSH_WRAPPER_SCRIPT, WRAPPER_SCRIPT } from "../../../src/execution/kubernetes/pod-wrapper.js";
import { recordingHooks, TICKET } from "../helpers/local-setup.js";
import { KINDS } from "./fake-api/status.js";
import { validateManifest } from "./fake-api/validate.js";
import { REPO_TOKEN, repositories, TICKET_BRANCH } from "./helpers/checkout-setup.js";
import { agentSpec, eventually, kubeBackend, resultMessage, runPod, startFake } from "./helpers/kube-setup.js";
import { renderJob } from "./helpers/render-job.js";

const SHA = "3f786850e387550fdab836ed7e6dc881de23001b";
const base64 = (text: string) => Buffer.from(text).toString("base64");

describe("kubernetes backend: the checkout in the Job", () => {
  it("adds an init container that clones, valid for the official schemas and the API server's rules", () => {
    const { job } = renderJob({ repositories: repositories() });
    expect(() => new Job(job as ConstructorParameters<typeof Job>[0]).validate()).not.toThrow();
    expect(() => validateManifest(KINDS.jobs, job, "errand")).not.toThrow();
    const pod = job.spec?.template.spec;
    expect(job.spec?.backoffLimit).toBe(0);
    expect(pod?.restartPolicy).toBe("Never");
    const [init] = pod?.initContainers ?? [];
    const engine = pod?.containers[0];
    expect(init?.name).toBe("checkout");
    expect(init?.image).toBe(engine?.image);
    expect(init?.command).toEqual(["/bin/sh", "-c", CHECKOUT_SCRIPT, "errand-checkout", "/dev/termination-log"]);
    expect(init?.securityContext).toEqual(engine?.securityContext);
    const env = Object.fromEntries((init?.env ?? []).map((v) => [v.name, v.value]));
    expect(env).toMatchObject({
      ERRAND_GIT_URL: "https://codehost.example/acme/web.git",
      ERRAND_GIT_BRANCH: TICKET_BRANCH,
      ERRAND_GIT_DEPTH: "1",
      ERRAND_GIT_USER_NAME: "Errand",
      ERRAND_GIT_USER_EMAIL: "errand@localhost",
      ERRAND_GIT_CREDENTIAL_FILE: "/errand/git-credential/token",
    });
    expect(engine?.command?.[2]).toBe(PUSH_WRAPPER_SCRIPT);
    expect(engine?.env).toContainEqual({ name: "ERRAND_GIT_BRANCH", value: TICKET_BRANCH });
  });

  it("mounts the run's credential Secret read-only, mode 0400, and never as an environment variable", () => {
    const { job, jobName } = renderJob({ repositories: repositories() });
    const pod = job.spec?.template.spec;
    expect(pod?.volumes).toContainEqual({
      name: "git-credential",
      secret: { secretName: `${jobName}-git`, defaultMode: 0o400, items: [{ key: "token", path: "token" }] },
    });
    for (const container of [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])]) {
      expect(container.volumeMounts).toContainEqual({
        name: "git-credential",
        mountPath: "/errand/git-credential",
        readOnly: true,
      });
      const fromSecrets = (container.env ?? []).filter((v) => v.valueFrom?.secretKeyRef?.name === `${jobName}-git`);
      expect(fromSecrets).toEqual([]);
    }
  });

  it("is left out for a ticket without a repository, and without repositories configured", () => {
    const noRepo = renderJob({ repositories: repositories(), ticket: { ...TICKET, repoUrl: "" } }).job;
    expect(noRepo.spec?.template.spec?.initContainers).toBeUndefined();
    const plain = renderJob().job.spec?.template.spec;
    expect(plain?.initContainers).toBeUndefined();
    expect(plain?.containers[0]?.command?.[2]).toBe(WRAPPER_SCRIPT);
  });

  it("takes no user or password from the ticket's repository URL into the clone URL", () => {
    const ticket = { ...TICKET, repoUrl: "https://someone:pw@codehost.example/acme/web/" };
    const init = renderJob({ repositories: repositories(), ticket }).job.spec?.template.spec?.initContainers?.[0];
    expect(init?.env).toContainEqual({ name: "ERRAND_GIT_URL", value: "https://codehost.example/acme/web.git" });
  });
});

describe("kubernetes backend: a run with a checkout", () => {
  async function started(token = REPO_TOKEN) {
    const rig = kubeBackend(await startFake(), { repositories: repositories({ token }) });
    const spec = agentSpec(rig.engine);
    const handle = await rig.backend.start(spec, recordingHooks());
    return { ...rig, spec, handle, secretName: `${spec.jobName}-git` };
  }

  it("puts the token in a Secret owned by the Job, nowhere else, and deletes the Secret when the run ends", async () => {
    const { fake, backend, spec, handle, secretName, logger } = await started();
    const secret = fake.secret(secretName);
    expect(() => new Secret(secret).validate()).not.toThrow();
    expect(secret?.data).toEqual({ token: base64(REPO_TOKEN) });
    expect(secret?.immutable).toBe(true);
    expect(secret?.metadata.ownerReferences).toEqual([
      { apiVersion: "batch/v1", kind: "Job", name: spec.jobName, uid: fake.job(spec.jobName)?.metadata.uid },
    ]);
    await runPod(fake, spec.jobName);
    expect(fake.problems).toEqual([]);
    // An agent that prints the token: what errand runs show reads back from the pod masks it.
    fake.log(spec.jobName, `cat /errand/git-credential/token: ${REPO_TOKEN}`);
    const seen = JSON.stringify([fake.job(spec.jobName), fake.pod(spec.jobName)]);
    expect(seen).not.toContain(REPO_TOKEN);
    expect(seen).not.toContain(base64(REPO_TOKEN));
    const carrying = fake.requests.filter((r) => JSON.stringify(r.body ?? {}).includes(base64(REPO_TOKEN)));
    expect(carrying.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /api/v1/namespaces/errand/secrets"]);
    fake.finishPod(spec.jobName, {
      exitCode: 0,
      message: `errand-git pushed ${TICKET_BRANCH} ${SHA}\n${resultMessage({ success: true, summary: "fixed" })}`,
    });
    const outcome = await handle.done;
    expect(outcome.result).toMatchObject({ success: true, summary: "fixed" });
    expect(outcome.checkout).toEqual({ kind: "pushed", branch: TICKET_BRANCH, commit: SHA });
    expect(fake.secret(secretName)).toBeUndefined();
    const log = await backend.readLog({ ...spec.run, attachment: handle.attachment, logRef: handle.logRef }, 4096);
    expect(log).toContain("cat /errand/git-credential/token: ");
    expect(log).not.toContain(REPO_TOKEN);
    expect(JSON.stringify(logger.records)).not.toContain(REPO_TOKEN);
    expect(fake.requests.filter((r) => JSON.stringify(r).includes(REPO_TOKEN))).toEqual([]);
  });

  it("says when the agent made no commit", async () => {
    const { fake, spec, handle } = await started();
    await runPod(fake, spec.jobName);
    fake.finishPod(spec.jobName, {
      exitCode: 0,
      message: `errand-git no-changes ${TICKET_BRANCH}\n${resultMessage({ success: true, summary: "nothing to do" })}`,
    });
    const outcome = await handle.done;
    expect(outcome.result.success).toBe(true);
    expect(outcome.checkout).toEqual({ kind: "no-changes", branch: TICKET_BRANCH });
  });

  it("fails a run whose push failed, with git's reason", async () => {
    const { fake, spec, handle } = await started();
    await runPod(fake, spec.jobName);
    fake.finishPod(spec.jobName, {
      exitCode: 0,
      message: `errand-git push-failed ${TICKET_BRANCH} the requested URL returned error: 403\n${resultMessage({ success: true, summary: "fixed" })}`,
    });
    const outcome = await handle.done;
    expect(outcome.result.success).toBe(false);
    expect(outcome.result.failureReason).toBe(
      `the push of branch ${TICKET_BRANCH} failed: the requested URL returned error: 403`,
    );
  });

  it("a clone that fails ends the run Failed with the init container's one-line reason, once", async () => {
    const { fake, spec, handle, secretName } = await started();
    await eventually("the pod", () => fake.pod(spec.jobName));
    const reason =
      "the clone of https://codehost.example/acme/web.git failed: Authentication failed for 'https://codehost.example/acme/web.git/'";
    fake.failInit(spec.jobName, { exitCode: 1, message: `${reason}\n` });
    const outcome = await handle.done;
    expect(outcome.result.success).toBe(false);
    expect(outcome.result.failureReason).toBe(`the checkout failed: ${reason}`);
    expect(outcome.checkout).toBeUndefined();
    expect(fake.secret(secretName)).toBeUndefined();
    expect(fake.requests.filter((r) => r.method === "POST" && r.path.endsWith("/jobs"))).toHaveLength(1);
  });

  it("a checkout container that can never be created fails the run at once, naming it", async () => {
    const { fake, spec, handle } = await started();
    await eventually("the pod", () => fake.pod(spec.jobName));
    fake.waitInit(spec.jobName, "InvalidImageName", 'couldn\'t parse image name "registry.example/agent:1.2 "');
    const { result } = await handle.done;
    expect(result.failureReason).toBe(
      'the checkout init container could not be created (InvalidImageName: couldn\'t parse image name "registry.example/agent:1.2 "); check engines.<name>.image',
    );
    await eventually("the Job to be deleted", () => (fake.job(spec.jobName) === undefined ? true : undefined));
  });

  it("a token that cannot be had fails the start before anything is made in the cluster", async () => {
    const rig = kubeBackend(await startFake(), { repositories: repositories({ fails: "the App's key was refused" }) });
    const spec = agentSpec(rig.engine);
    await expect(rig.backend.start(spec, recordingHooks())).rejects.toMatchObject({
      code: ControllerErrorCode.EngineStart,
      message: expect.stringContaining("the App's key was refused"),
    });
    expect(rig.fake.requests.filter((r) => r.method === "POST")).toEqual([]);
  });

  it("refuses to start when the token is in the Job (an engine variable holding it)", async () => {
    const rig = kubeBackend(await startFake(), {
      repositories: repositories(),
      engine: { env: { GH_TOKEN: REPO_TOKEN } },
    });
    await expect(rig.backend.start(agentSpec(rig.engine), recordingHooks())).rejects.toMatchObject({
      code: ControllerErrorCode.EngineStart,
      message: expect.stringContaining("the repository credential appears in the Job manifest"),
    });
    expect(rig.fake.requests.filter((r) => r.method === "POST")).toEqual([]);
  });
});
