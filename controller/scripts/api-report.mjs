// The controller's public API (controller/api/controller.api.md): createController, the config and secret
// loaders, the errors and the extension points' types. The work is done by the repository's scripts/api-report.mjs.
// `node scripts/api-report.mjs` compares; `--update` rewrites the report.
import { fileURLToPath } from "node:url";
import { apiReports as reports, runApiReportCommand } from "../../scripts/api-report.mjs";

const controllerDir = fileURLToPath(new URL("..", import.meta.url));

/** The package's one entry point -> report name and built declaration file. */
export const ENTRY_POINTS = [{ entry: "@errand/controller", report: "controller", dts: "dist/index.d.ts" }];

export const UPDATE_COMMAND = "npm run api:update -w controller";

/** Compares (or with `update`, rewrites) the report; see scripts/api-report.mjs. */
export const apiReports = ({ update = false, reportFolder = undefined } = {}) =>
  reports({ packageDir: controllerDir, entries: ENTRY_POINTS, update, reportFolder });

if (process.argv[1] === fileURLToPath(import.meta.url))
  runApiReportCommand({ packageDir: controllerDir, entries: ENTRY_POINTS, updateCommand: UPDATE_COMMAND });
