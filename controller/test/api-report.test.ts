import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script (scripts/ is not compiled), typed by its use here.
import { apiReports, UPDATE_COMMAND } from "../scripts/api-report.mjs";

interface ReportResult {
  entry: string;
  reportPath: string;
  changed: boolean;
  messages: string[];
}
const run = apiReports as (options?: { update?: boolean }) => ReportResult[];

// The public API is committed in controller/api/controller.api.md: createController, the config and secret
// loaders, the errors and the extension points' types. The built declarations (tsc -b controller) must match it,
// so the surface grows only on purpose.
describe("API report (api-extractor)", () => {
  it("the entry point's API matches its committed report", { timeout: 180_000 }, () => {
    const results = run();
    // What `npm run api:check` fails on besides a changed report: a {@link} that resolves to nothing, say.
    expect(results.flatMap((r) => r.messages.map((m) => `${r.entry}: ${m}`))).toEqual([]);
    const changed = results.filter((r) => r.changed);
    expect(
      changed.map((r) => `${r.reportPath}: the API of ${r.entry} differs from the committed report`),
      `The public API changed. If on purpose, run \`${UPDATE_COMMAND}\`, review the diff of controller/api/ and commit it (with a changeset).`,
    ).toEqual([]);
  });
});
