import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script (scripts/ is not compiled), typed by its use here.
import { apiReports, ENTRY_POINTS, UPDATE_COMMAND } from "../scripts/api-report.mjs";

interface ReportResult {
  entry: string;
  reportPath: string;
  changed: boolean;
  succeeded: boolean;
  messages: string[];
}
type Run = (options?: { update?: boolean; reportFolder?: string; entries?: unknown[] }) => ReportResult[];
const run = apiReports as Run;
const entries = ENTRY_POINTS as { entry: string; report: string; dts: string }[];

const apiDir = new URL("../api/", import.meta.url);
const scratch = mkdtempSync(join(tmpdir(), "errand-api-report-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// The public API of each entry point is committed in sdk/api/*.api.md; the
// built declarations (tsc -b sdk) must match them, so the surface changes
// only on purpose.
describe("API reports (api-extractor)", () => {
  it("every entry point's API matches its committed report", { timeout: 180_000 }, () => {
    const results = run();
    // What `npm run api:check` fails on besides a changed report: a {@link} that resolves to nothing, say.
    expect(results.flatMap((r) => r.messages.map((m) => `${r.entry}: ${m}`))).toEqual([]);
    const changed = results.filter((r) => r.changed);
    expect(
      changed.map((r) => `${r.reportPath}: the API of ${r.entry} differs from the committed report`),
      `The public API changed. If on purpose, run \`${UPDATE_COMMAND}\`, review the diff of sdk/api/ and commit it (and say so in sdk/CHANGELOG.md).`,
    ).toEqual([]);
  });

  it("a report that lacks an export, or lists one that is gone, is a difference", { timeout: 120_000 }, () => {
    const host = entries.find((e) => e.report === "host")!;
    const committed = readFileSync(new URL("host.api.md", apiDir), "utf8");
    // As if createLogger had been added since the report was made.
    writeFileSync(
      join(scratch, "host.api.md"),
      committed.replace(/\/\/ @public\nexport function createLogger\(.*\n\n/, ""),
    );
    expect(readFileSync(join(scratch, "host.api.md"), "utf8")).not.toContain("createLogger");
    expect(run({ reportFolder: scratch, entries: [host] })[0]?.changed).toBe(true);
    // As if an export had been removed since.
    writeFileSync(
      join(scratch, "host.api.md"),
      `${committed.replace("```ts\n", "```ts\n\n// @public\nexport function removedSinceTheReport(): void;\n")}`,
    );
    expect(run({ reportFolder: scratch, entries: [host] })[0]?.changed).toBe(true);
    copyFileSync(new URL("host.api.md", apiDir), join(scratch, "host.api.md"));
    expect(run({ reportFolder: scratch, entries: [host] })[0]?.changed).toBe(false);
  });
});
