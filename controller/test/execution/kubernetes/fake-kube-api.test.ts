import { ApiException, BatchV1Api, CoreV1Api, type V1Job, Watch } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { onCleanup } from "../helpers/local-setup.js";
import { FakeKubeApi } from "./fake-api/fake-kube-api.js";
import { eventually } from "./helpers/kube-setup.js";

async function fake() {
  const api = await FakeKubeApi.start();
  onCleanup(() => api.close());
  const kubeConfig = api.kubeConfig();
  return {
    api,
    batch: kubeConfig.makeApiClient(BatchV1Api),
    core: kubeConfig.makeApiClient(CoreV1Api),
    watch: new Watch(kubeConfig),
  };
}

function job(name: string, overrides: Record<string, unknown> = {}): V1Job {
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name, labels: { app: "test" } },
    spec: {
      backoffLimit: 0,
      template: {
        metadata: { labels: { app: "test" } },
        spec: { restartPolicy: "Never", containers: [{ name: "main", image: "busybox:1" }] },
      },
    },
    ...overrides,
  };
}

/** The Status body of a failed call. */
// biome-ignore lint/suspicious/noExplicitAny: the test reads JSON of any shape and asserts on it
async function status(call: Promise<unknown>): Promise<{ code: number; body: Record<string, any> }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiException);
  const { code, body } = error as ApiException<string>;
  return { code, body: JSON.parse(body) };
}

describe("the fake Kubernetes API is as strict as the real one", () => {
  it("answers 404 and 409 with Status bodies", async () => {
    const { batch } = await fake();
    expect(await status(batch.readNamespacedJob({ name: "nope", namespace: "errand" }))).toEqual({
      code: 404,
      body: {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: 'jobs.batch "nope" not found',
        reason: "NotFound",
        details: { name: "nope", group: "batch", kind: "jobs" },
        code: 404,
      },
    });
    await batch.createNamespacedJob({ namespace: "errand", body: job("once") });
    const conflict = await status(batch.createNamespacedJob({ namespace: "errand", body: job("once") }));
    expect(conflict).toMatchObject({
      code: 409,
      body: { reason: "AlreadyExists", message: 'jobs.batch "once" already exists' },
    });
  });

  it("answers 422 with a cause per invalid field: schema types, names, labels, env, resources", async () => {
    const { batch, core } = await fake();
    const bad = job("Bad_Name", {
      metadata: { name: "Bad_Name", labels: { app: "x".repeat(64) } },
      spec: {
        backoffLimit: -1,
        template: {
          spec: {
            restartPolicy: "Always",
            containers: [
              {
                name: "main",
                image: "busybox:1",
                env: [
                  { name: "1BAD", value: "x" },
                  { name: "BOTH", value: "x", valueFrom: { secretKeyRef: { name: "s", key: "k" } } },
                ],
                resources: { requests: { memory: "2Gi" }, limits: { memory: "1Gi" } },
                volumeMounts: [{ name: "missing", mountPath: "/data" }],
              },
            ],
          },
        },
      },
    });
    const { code, body } = await status(batch.createNamespacedJob({ namespace: "errand", body: bad }));
    expect(code).toBe(422);
    expect(body.reason).toBe("Invalid");
    expect(body.details.causes.map((c: { field: string }) => c.field)).toEqual([
      "metadata.name",
      "metadata.labels",
      "spec.backoffLimit",
      "spec.template.spec.restartPolicy",
      "spec.template.spec.containers[0].env[0].name",
      "spec.template.spec.containers[0].env[1].valueFrom",
      "spec.template.spec.containers[0].volumeMounts[0].name",
      "spec.template.spec.containers[0].resources.requests[memory]",
    ]);
    expect(body.message).toMatch(
      /^Job\.batch "Bad_Name" is invalid: \[metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 label/,
    );
    const typed = await status(
      batch.createNamespacedJob({
        namespace: "errand",
        body: job("typed", {
          spec: { template: { spec: { restartPolicy: "Never", containers: [{ name: "main" }] } } },
        }),
      }),
    );
    expect(typed.body.details.causes).toContainEqual({
      reason: "FieldValueRequired",
      message: "Required value",
      field: "spec.template.spec.containers[0].image",
    });
    const configMap = await status(
      core.createNamespacedConfigMap({
        namespace: "errand",
        body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm" }, data: { "bad/key": "x" } },
      }),
    );
    expect(configMap.body.details.causes[0]).toMatchObject({ field: "data", reason: "FieldValueInvalid" });
  });

  it("needs the bearer token, the right namespace and a parseable selector", async () => {
    const { api, batch } = await fake();
    const response = await fetch(`${api.url}/apis/batch/v1/namespaces/errand/jobs`);
    expect(response.status).toBe(401);
    expect(
      await status(
        batch.createNamespacedJob({
          namespace: "errand",
          body: job("x", { metadata: { name: "x", namespace: "other" } }),
        }),
      ),
    ).toMatchObject({ code: 400 });
    expect(await status(batch.createNamespacedJob({ namespace: "nowhere", body: job("x") }))).toMatchObject({
      code: 404,
      body: { message: 'namespaces "nowhere" not found' },
    });
    expect(await status(batch.listNamespacedJob({ namespace: "errand", labelSelector: "a in (b" }))).toMatchObject({
      code: 400,
      body: { reason: "BadRequest" },
    });
  });

  it("watches from a resourceVersion, and answers one compacted away with a 410 ERROR event", async () => {
    const { api, batch, watch } = await fake();
    const from = Number(api.resourceVersion);
    await batch.createNamespacedJob({ namespace: "errand", body: job("watched") });
    const seen: string[] = [];
    const ended = new Promise<void>((resolve) => {
      void watch.watch(
        "/apis/batch/v1/namespaces/errand/jobs",
        { resourceVersion: String(from), labelSelector: "app=test" },
        (type, object) => seen.push(`${type} ${object.metadata.name}`),
        () => resolve(),
      );
    });
    await eventually("the replayed events", () => (seen.length >= 2 ? true : undefined));
    api.endWatches();
    await ended;
    // Replayed from the history: made, then given its selector by the Job controller (then its status).
    expect(seen.slice(0, 2)).toEqual(["ADDED watched", "MODIFIED watched"]);
    api.compact();
    const errors: unknown[] = [];
    await new Promise<void>((resolve) => {
      void watch.watch(
        "/apis/batch/v1/namespaces/errand/jobs",
        { resourceVersion: String(from) },
        (type, object) => errors.push({ type, code: object.code, reason: object.reason }),
        () => resolve(),
      );
    });
    expect(errors).toEqual([{ type: "ERROR", code: 410, reason: "Expired" }]);
  });

  it("deletes Jobs by propagation: orphan by default, background, foreground dependents first", async () => {
    const { api, batch, core } = await fake();
    for (const name of ["orphan", "background", "foreground"])
      await batch.createNamespacedJob({ namespace: "errand", body: job(name) });
    const podOf = async (name: string) =>
      (await core.listNamespacedPod({ namespace: "errand", labelSelector: `job-name=${name}` })).items;
    for (const name of ["orphan", "background", "foreground"])
      await eventually(`the pod of ${name}`, async () => ((await podOf(name)).length > 0 ? true : undefined));
    await batch.deleteNamespacedJob({ name: "orphan", namespace: "errand" });
    expect((await podOf("orphan"))[0]?.metadata?.ownerReferences).toEqual([]);
    await batch.deleteNamespacedJob({ name: "background", namespace: "errand", propagationPolicy: "Background" });
    await batch.deleteNamespacedJob({ name: "foreground", namespace: "errand", propagationPolicy: "Foreground" });
    await eventually("the foreground deletion", () => (api.job("foreground") === undefined ? true : undefined));
    const deleted = api
      .events()
      .filter((e) => e.type === "DELETED")
      .map((e) => `${e.resource}/${e.object.metadata.name.replace(/-[a-z0-9]{5}$/, "")}`);
    expect(deleted).toEqual([
      "jobs/orphan",
      "jobs/background",
      "pods/background",
      "pods/foreground",
      "jobs/foreground",
    ]);
    expect(await status(batch.deleteNamespacedJob({ name: "foreground", namespace: "errand" }))).toMatchObject({
      code: 404,
    });
  });
});
