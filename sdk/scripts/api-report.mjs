// The SDK's public API, one report per entry point (sdk/api/<entry>.api.md);
// the work is done by the repository's scripts/api-report.mjs.
// `node scripts/api-report.mjs` compares; `--update` rewrites the reports.
import { fileURLToPath } from "node:url";
import { apiReports as reports, runApiReportCommand } from "../../scripts/api-report.mjs";

const sdkDir = fileURLToPath(new URL("..", import.meta.url));

/** Entry point (as in package.json `exports`) -> report name and built declaration file. */
export const ENTRY_POINTS = [
  { entry: "@errand/channel-sdk", report: "channel-sdk", dts: "dist/index.d.ts" },
  { entry: "@errand/channel-sdk/host", report: "host", dts: "dist/host/index.d.ts" },
  { entry: "@errand/channel-sdk/helpers", report: "helpers", dts: "dist/helpers/index.d.ts" },
  { entry: "@errand/channel-sdk/testing", report: "testing", dts: "dist/testing/index.d.ts" },
  { entry: "@errand/channel-sdk/protocol", report: "protocol", dts: "dist/protocol/index.d.ts" },
  { entry: "@errand/channel-sdk/logger", report: "logger", dts: "dist/logger.d.ts" },
];

export const UPDATE_COMMAND = "npm run api:update -w sdk";

/** Compares (or with `update`, rewrites) the reports; see scripts/api-report.mjs. */
export const apiReports = ({ update = false, reportFolder = undefined, entries = ENTRY_POINTS } = {}) =>
  reports({ packageDir: sdkDir, entries, update, reportFolder });

if (process.argv[1] === fileURLToPath(import.meta.url))
  runApiReportCommand({ packageDir: sdkDir, entries: ENTRY_POINTS, updateCommand: UPDATE_COMMAND });
