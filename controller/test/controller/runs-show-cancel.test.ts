import { expect, it } from "vitest";
import { formatRunDetail } from "../../src/cli/format-run.js";
import { runningTaskRun } from "../helpers/task-run.js";

const plain = (_style: unknown, text: string) => text;

it("errand runs show names who asked to cancel a run that is still stopping", () => {
  const run = runningTaskRun({
    id: "run_01",
    ticket: { source: "generic", id: "42" },
    cancelRequestedAt: Date.UTC(2026, 0, 2, 3, 4, 5),
    cancelRequestedBy: { kind: "console", name: "operator", from: "127.0.0.1" },
  });
  const text = formatRunDetail(run, undefined, [], undefined, plain);
  expect(text).toMatch(/cancel requested {2}\(by console operator from 127\.0\.0\.1\)\n/);
});
