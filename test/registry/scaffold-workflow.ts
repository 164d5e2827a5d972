import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "yaml";

/** The `run` lines of a scaffold's GitHub workflow (.github/workflows/ci.yml, job `test`), in order, as written. */
export async function workflowSteps(scaffold: string): Promise<string[]> {
  const workflow = parse(await readFile(join(scaffold, ".github/workflows/ci.yml"), "utf8"));
  return (workflow.jobs.test.steps as { run?: string }[]).flatMap((s) => (s.run ? [s.run] : []));
}
