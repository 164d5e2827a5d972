// A package's public API, one report per entry point (<package>/api/<entry>.api.md),
// made by api-extractor from the built declarations (run `tsc -b` first).
// Each package's scripts/api-report.mjs names its entry points and calls
// this; its test/api-report.test.ts runs the comparison, so a surface
// changes only on purpose: a changed report is reviewed and committed.
import { mkdirSync } from "node:fs";
import { CompilerState, Extractor, ExtractorConfig } from "@microsoft/api-extractor";

/**
 * Runs api-extractor on every entry point of the package in `packageDir`
 * (with a trailing slash). With `update`, rewrites the committed reports;
 * without, only compares. `reportFolder` lets a test compare against reports
 * of its own. Returns one result per entry.
 */
export function apiReports({ packageDir, entries, update = false, reportFolder = `${packageDir}api` }) {
  const tempFolder = `${packageDir}temp/api`;
  mkdirSync(tempFolder, { recursive: true });
  mkdirSync(reportFolder, { recursive: true });
  const configs = entries.map(({ entry, report, dts }) => ({
    entry,
    report,
    config: ExtractorConfig.prepare({
      configObject: {
        projectFolder: packageDir,
        mainEntryPointFilePath: `${packageDir}${dts}`,
        compiler: { tsconfigFilePath: `${packageDir}tsconfig.json` },
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
            // Entry points stay small on purpose: a type a public signature uses without exporting it (a config
            // schema, an error class's base) is internal; the report shows the signature that uses it.
            "ae-forgotten-export": { logLevel: "none" },
          },
          tsdocMessageReporting: { default: { logLevel: "none" } },
        },
      },
      configObjectFullPath: `${packageDir}api-extractor.json`,
      packageJsonFullPath: `${packageDir}package.json`,
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
        if (message.logLevel === "warning" || message.logLevel === "error")
          messages.push(message.formatMessageWithLocation(packageDir));
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

/** The command-line part: compares (or with `--update`, rewrites) and sets the exit code. */
export function runApiReportCommand({ packageDir, entries, updateCommand, argv = process.argv }) {
  const update = argv.includes("--update");
  let failed = false;
  for (const r of apiReports({ packageDir, entries, update })) {
    for (const m of r.messages) console.error(`${r.entry}: ${m}`);
    if (r.changed) {
      console.error(
        update
          ? `${r.reportPath}: updated (review and commit it)`
          : `${r.reportPath}: the API of ${r.entry} changed; run \`${updateCommand}\``,
      );
      failed ||= !update;
    }
    if (!r.succeeded && !r.changed) failed = true;
  }
  process.exitCode = failed ? 1 : 0;
}
