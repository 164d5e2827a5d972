import { expect, it } from "vitest";
import { formatRunDetail } from "../../src/cli/format-run.js";
import { runningTaskRun } from "../helpers/task-run.js";

const KEY = { id: "run_01", ticket: { source: "generic", id: "42" } };
const plain = (_style: unknown, text: string) => text;

it("errand runs show names the branch of a run that worked in a checkout, and no branch line otherwise", () => {
  const withBranch = formatRunDetail(
    runningTaskRun({ ...KEY, branch: "errand/42-fix-it" }),
    undefined,
    [],
    undefined,
    plain,
  );
  expect(withBranch).toContain("\n  branch errand/42-fix-it\n");
  expect(formatRunDetail(runningTaskRun(KEY), undefined, [], undefined, plain)).not.toContain("branch");
});
