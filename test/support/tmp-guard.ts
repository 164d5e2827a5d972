import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

/**
 * The temp directory a project's tests run with (their TMPDIR, so every
 * `os.tmpdir()` in the tests and in the processes they start points there):
 * one per project and vitest process, so runs side by side never see each
 * other's files. Made and checked by this module's global setup.
 */
export function projectTmpDir(project: string): string {
  return join(tmpdir(), `errand-vitest-${project}-${process.pid}`);
}

/**
 * Global setup of every project: makes the project's temp directory, and at
 * the end removes it and fails the run if the tests left anything in it (tests
 * remove what they make, in afterEach/afterAll: test/support/temp-dir.ts; a
 * process they start is stopped, and waited for, before its folder goes).
 * Every project is held to it: each was seen to leave nothing in two runs in a row.
 */
export default function setup(project: TestProject): () => void {
  const name = project.config.name;
  const dir = project.config.env.TMPDIR;
  if (!dir?.startsWith(projectTmpDir(name))) {
    throw new Error(
      `vitest project ${name}: set test.env.TMPDIR to projectTmpDir(${JSON.stringify(name)}) in its vitest.config.ts`,
    );
  }
  // 0755: tests hand folders in it to other users (PostgreSQL runs as postgres).
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  return () => {
    const left = readdirSync(dir);
    rmSync(dir, { recursive: true, force: true });
    if (left.length === 0) return;
    const message = `vitest project ${name}: the tests left ${left.length} entries in their temp directory (${left.slice(0, 10).join(", ")}${left.length > 10 ? ", …" : ""}); remove what a test makes in its afterEach or afterAll`;
    // An error thrown in a global teardown is printed but leaves the exit status 0.
    console.error(`error: ${message}`);
    process.exitCode = 1;
  };
}
