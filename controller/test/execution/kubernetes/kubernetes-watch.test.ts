import { describe, expect, it } from "vitest";
import { recordingHooks } from "../helpers/local-setup.js";
import type { FakeKubeApi } from "./fake-api/fake-kube-api.js";
import { agentSpec, eventually, kubeBackend, resultMessage, runPod, startFake } from "./helpers/kube-setup.js";

async function running() {
  const rig = kubeBackend(await startFake());
  const spec = agentSpec(rig.engine);
  const hooks = recordingHooks();
  const handle = await rig.backend.start(spec, hooks);
  await runPod(rig.fake, spec.jobName);
  rig.fake.log(spec.jobName, "::progress:: working");
  await hooks.progress("working");
  await eventually("both watches", () =>
    rig.fake.openWatches("jobs") === 1 && rig.fake.openWatches("pods") === 1 ? true : undefined,
  );
  return { ...rig, spec, handle, hooks };
}

const jobWatches = (fake: FakeKubeApi) =>
  fake.requests.filter((r) => r.path === "/apis/batch/v1/namespaces/errand/jobs" && r.query.get("watch") === "true");
const jobLists = (fake: FakeKubeApi) =>
  fake.requests.filter(
    (r) => r.method === "GET" && r.path === "/apis/batch/v1/namespaces/errand/jobs" && r.query.get("watch") !== "true",
  );
const success = { exitCode: 0, message: resultMessage({ success: true, summary: "done" }) };

describe("kubernetes backend: watches", () => {
  it("a dropped watch is resumed from the last resourceVersion and still sees the end", async () => {
    const { fake, spec, handle } = await running();
    expect(fake.dropWatches()).toBe(2);
    fake.finishPod(spec.jobName, success);
    expect((await handle.done).result.summary).toBe("done");
    const watches = jobWatches(fake);
    expect(watches.length).toBeGreaterThanOrEqual(2);
    const versions = watches.map((w) => Number(w.query.get("resourceVersion")));
    expect(versions.every((v) => v > 0)).toBe(true);
    expect(versions[1]).toBeGreaterThanOrEqual(versions[0] as number);
    expect(
      watches.every(
        (w) =>
          w.query.get("allowWatchBookmarks") === "true"
          && w.query.get("labelSelector") === "app.kubernetes.io/managed-by=errand",
      ),
    ).toBe(true);
    // Resumed, not listed again.
    expect(jobLists(fake)).toHaveLength(1);
  });

  it("a watch answered 410 Gone (its resourceVersion compacted away) lists again and still sees the end", async () => {
    const { fake, spec, handle, logger } = await running();
    fake.suspendWatches();
    fake.finishPod(spec.jobName, success);
    fake.compact();
    fake.dropWatches();
    fake.resumeWatches();
    expect((await handle.done).result.summary).toBe("done");
    expect(jobLists(fake)).toHaveLength(2);
    expect(logger.records.some((r) => r.message === "the jobs watch expired (410 Gone); listing again")).toBe(true);
  });

  it("bookmarks move the resourceVersion on, so a resumed watch starts from the bookmark", async () => {
    const { fake, spec, handle } = await running();
    for (let i = 0; i < 3; i++) fake.unrelatedChange();
    const bookmarked = fake.resourceVersion;
    fake.bookmark();
    const before = jobWatches(fake).length;
    fake.endWatches();
    await eventually("the watch to resume", () => (jobWatches(fake).length > before ? true : undefined));
    expect(jobWatches(fake).at(-1)?.query.get("resourceVersion")).toBe(bookmarked);
    fake.finishPod(spec.jobName, success);
    expect((await handle.done).result.success).toBe(true);
  });

  it("a cut log stream is resumed from its last line's time: no line lost, none repeated", async () => {
    const { fake, spec, handle, hooks } = await running();
    fake.log(spec.jobName, "::progress:: one", "::progress:: two");
    await hooks.progress("two");
    expect(fake.dropLogStreams()).toBe(1);
    fake.log(spec.jobName, "::progress:: three");
    await hooks.progress("three");
    fake.finishPod(spec.jobName, success);
    await handle.done;
    const progress = hooks.events
      .filter((e) => e.kind === "progress")
      .map((e) => (e.kind === "progress" ? e.text : ""));
    expect(progress).toEqual(["working", "one", "two", "three"]);
    const resumed = fake.requests.filter((r) => r.path.endsWith("/log") && r.query.get("sinceTime") !== null);
    expect(resumed.length).toBeGreaterThanOrEqual(1);
    expect(resumed.every((r) => r.query.get("timestamps") === "true")).toBe(true);
  });
});
