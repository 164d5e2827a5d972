// The SDK's public API, one report per entry point (sdk/api/<entry>.api.md),
// made by api-extractor from the built declarations (run `tsc -b sdk` first).
// `node scripts/api-report.mjs` compares; `--update` rewrites the reports.
// test/api-report.test.ts runs the comparison, so the surface changes only
// on purpose: a changed report is reviewed and committed with the change.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CompilerState, Extractor, ExtractorConfig } from "@microsoft/api-extractor";

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

/**
 * Runs api-extractor on every entry point. With `update`, rewrites the
 * committed reports; without, only compares. `reportFolder` and `entries`
 * let a test compare against reports of its own. Returns one result per entry.
 */
export function apiReports({ update = false, reportFolder = `${sdkDir}api`, entries = ENTRY_POINTS } = {}) {
  const tempFolder = `${sdkDir}temp/api`;
  mkdirSync(tempFolder, { recursive: true });
  mkdirSync(reportFolder, { recursive: true });
  const configs = entries.map(({ entry, report, dts }) => ({
    entry,
    report,
    config: ExtractorConfig.prepare({
      configObject: {
        projectFolder: sdkDir,
        mainEntryPointFilePath: `${sdkDir}${dts}`,
        compiler: { tsconfigFilePath: `${sdkDir}tsconfig.json` },
        apiReport: { enabled: true, reportFileName: report, reportFolder, reportTempFolder: tempFolder },
        newlineKind: "lf",
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          compilerMessageReporting: { default: { logLevel: "warning" } },
          extractorMessageReporting: {
            default: { logLevel: "warning" },
            // Release tags (@public, @beta) are not used: the entry point is the contract.
            "ae-missing-release-tag": { logLevel: "none" },
            // Generated protobuf code has no TSDoc; the report lists it all the same.
            "ae-undocumented": { logLevel: "none" },
          },
          tsdocMessageReporting: { default: { logLevel: "none" } },
        },
      },
      configObjectFullPath: `${sdkDir}api-extractor.json`,
      packageJsonFullPath: `${sdkDir}package.json`,
    }),
  }));
  // One TypeScript program for all entry points: analysing it is most of the cost.
  const compilerState = CompilerState.create(configs[0].config, {
    additionalEntryPoints: configs.map(({ config }) => config.mainEntryPointFilePath),
  });
  return configs.map(({ entry, report, config }) => {
    const messages = [];
    const result = Extractor.invoke(config, {
      localBuild: update,
      compilerState,
      messageCallback: (message) => {
        if (message.logLevel === "warning" || message.logLevel === "error") messages.push(message.formatMessageWithLocation(sdkDir));
        message.handled = true;
      },
    });
    return {
      entry,
      reportPath: `api/${report}.api.md`,
      changed: result.apiReportChanged,
      succeeded: result.succeeded,
      messages,
    };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const update = process.argv.includes("--update");
  let failed = false;
  for (const r of apiReports({ update })) {
    for (const m of r.messages) console.error(`${r.entry}: ${m}`);
    if (r.changed) {
      console.error(update ? `${r.reportPath}: updated (review and commit it)` : `${r.reportPath}: the API of ${r.entry} changed; run \`${UPDATE_COMMAND}\``);
      failed ||= !update;
    }
    if (!r.succeeded && !r.changed) failed = true;
  }
  process.exitCode = failed ? 1 : 0;
}
