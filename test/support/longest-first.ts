import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Test files known to take minutes, by path from the repository root, with
 * their rough duration in ms: what orders them on a fresh clone, where vitest
 * has no durations recorded yet.
 */
export const KNOWN_LONG_FILES: Readonly<Record<string, number>> = {
  // Every document's commands and the whole path through a test registry (about 220 s on 2 cores).
  "test/registry/docs-commands.test.ts": 220_000,
};

/**
 * Starts the longest test files first, across projects. Vitest's own order
 * runs the projects by name (`repo`, which holds the registry tests, near
 * the end) and only then longest first, so on 2 workers a file of minutes
 * started late ran alone at the end of the suite. A file's duration is the
 * one recorded by the last run, or its entry in {@link KNOWN_LONG_FILES};
 * files that failed last time still come first, as in vitest's order.
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const vitestOrder = await super.sort(files);
    const root = this.ctx.config.root;
    const facts = new Map(
      vitestOrder.map((spec, index) => {
        const path = relative(root, spec.moduleId);
        const recorded = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
        const duration = recorded?.duration ?? KNOWN_LONG_FILES[path] ?? 0;
        return [spec, { failed: recorded?.failed === true, duration, index }];
      }),
    );
    return vitestOrder.sort((a, b) => {
      const [x, y] = [facts.get(a)!, facts.get(b)!];
      const groups = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      return groups || Number(y.failed) - Number(x.failed) || y.duration - x.duration || x.index - y.index;
    });
  }
}
