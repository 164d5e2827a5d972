import { describe, expect, it } from "vitest";
import { idsWith, runFixture } from "./helpers/run-fixture.js";

// Each deliberately broken plugin must be caught by the check made for its
// defect, while the related checks that do not concern it still pass.
const cases: { file: string; fails: string[]; passes: string[]; startTimeoutMs?: number }[] = [
  { file: "broken/garbage-stdout.mjs", fails: ["startup.handshake-line"], passes: ["startup.cookie"] },
  { file: "broken/no-handshake.mjs", fails: ["startup.handshake-line"], passes: [], startTimeoutMs: 1500 },
  { file: "broken/ignores-cookie.mjs", fails: ["startup.cookie"], passes: ["startup.handshake-line", "notify.basic"] },
  {
    file: "broken/stdout-in-handler.mjs",
    fails: ["startup.stdout-clean"],
    passes: ["startup.handshake-line", "notify.basic"],
  },
  { file: "broken/not-serving.mjs", fails: ["health.serving"], passes: ["handshake.v1", "notify.basic"] },
  {
    file: "broken/any-version.mjs",
    fails: ["handshake.unsupported-version"],
    passes: ["handshake.v1", "health.serving"],
  },
  { file: "broken/bad-name.mjs", fails: ["handshake.v1"], passes: ["health.serving", "handshake.unsupported-version"] },
  {
    file: "broken/wrong-versions.mjs",
    fails: ["handshake.v1"],
    passes: ["health.serving", "handshake.unsupported-version"],
  },
  { file: "broken/never-answers.mjs", fails: ["notify.basic", "deadline.honoured"], passes: ["handshake.v1"] },
  { file: "broken/blocks-deadline.mjs", fails: ["deadline.honoured"], passes: ["notify.basic", "target.delivery"] },
  {
    file: "broken/crashes-on-unicode.mjs",
    fails: ["notify.unicode"],
    passes: ["notify.basic", "notify.complete-failure"],
  },
  { file: "broken/ignores-shutdown.mjs", fails: ["shutdown.rpc", "shutdown.sigterm"], passes: ["notify.basic"] },
  {
    file: "broken/drops-notification.mjs",
    fails: ["target.delivery"],
    passes: ["notify.complete-success", "target.retry-after"],
  },
  {
    file: "broken/no-retry-429.mjs",
    fails: ["target.retry-after"],
    passes: ["target.delivery", "target.persistent-5xx"],
  },
  { file: "broken/retries-forever.mjs", fails: ["target.persistent-5xx"], passes: ["target.delivery"] },
  { file: "broken/hangs-on-target.mjs", fails: ["target.hang"], passes: ["target.delivery", "notify.basic"] },
  { file: "broken/ignores-rate.mjs", fails: ["target.rate"], passes: ["target.delivery", "target.retry-after"] },
];

describe("deliberately broken plugins", () => {
  it.concurrent.each(cases)("$file fails $fails", async ({ file, fails, passes, startTimeoutMs }) => {
    const results = await runFixture(file, { only: [...fails, ...passes], startTimeoutMs });
    expect(idsWith(results, "failed")).toEqual([...fails].sort());
    expect(idsWith(results, "passed")).toEqual([...passes].sort());
    for (const id of fails) {
      const r = results.get(id)!;
      // Every failure explains itself.
      expect(r.expected).toBeTruthy();
      expect(r.actual).toBeTruthy();
      expect(r.fix).toBeTruthy();
    }
  });
});

describe("a correct plugin", () => {
  it("passes every check, the target checks included", async () => {
    const results = await runFixture("good.mjs");
    const failed = [...results.values()].filter((r) => r.status !== "passed");
    expect(failed).toEqual([]);
    expect(results.size).toBeGreaterThanOrEqual(22);
  });
});
