import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import chalk from "chalk";
import type { CheckEnvironment } from "../conformance/check.js";
import { CHECK_IDS } from "../conformance/checks/index.js";
import {
  CONFORMANCE_FILE,
  type ConformanceConfig,
  ConformanceConfigError,
  loadConformanceConfig,
} from "../conformance/config.js";
import { isStoppingAll } from "../conformance/plugin-processes.js";
import { type PluginTarget, TargetError, targetFromCommand, targetFromPackage } from "../conformance/plugin-target.js";
import { formatResult, formatSummary, jsonReport, junitReport } from "../conformance/report.js";
import { runConformance, unknownSelectors } from "../conformance/runner.js";
import { commandProblem } from "../util/command-problem.js";
import { CLI_VERSION } from "../util/version.js";
import { junitPathProblem } from "./test-options.js";

/** Options of `channel test`, as parsed by commander. */
export interface TestCommandOptions {
  config?: string;
  json?: boolean;
  junit?: string;
  only?: string;
  skip?: string;
  startTimeout?: number;
  concurrency?: number;
}

const list = (value: string | undefined) =>
  value
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** Throws TargetError when an --only/--skip entry selects no check. */
function checkSelectors(option: string, patterns: string[] | undefined): void {
  const unknown = unknownSelectors(patterns ?? []);
  if (unknown.length === 0) return;
  const groups = [...new Set(CHECK_IDS.map((id) => id.split(".")[0]))];
  throw new TargetError(
    `${option}: no check is called ${unknown.map((u) => JSON.stringify(u)).join(", ")}; use check ids (${CHECK_IDS.join(", ")}) or groups (${groups.join(", ")})`,
  );
}

/** Everything the run needs, checked before any plugin starts; throws TargetError or ConformanceConfigError. */
async function prepare(dir: string | undefined, command: string[], options: TestCommandOptions) {
  checkSelectors("--only", list(options.only));
  checkSelectors("--skip", list(options.skip));
  if (options.junit) {
    const problem = junitPathProblem(options.junit);
    if (problem) throw new TargetError(problem);
  }
  const target: PluginTarget = command.length > 0 ? targetFromCommand(command) : await targetFromPackage(dir ?? ".");
  const configFile = options.config
    ? resolve(options.config)
    : command.length === 0
      ? join(target.cwd, CONFORMANCE_FILE)
      : undefined;
  if (options.config && !existsSync(configFile!))
    throw new ConformanceConfigError(`the conformance config ${options.config} does not exist`);
  const conformance: ConformanceConfig | undefined =
    configFile && existsSync(configFile) ? await loadConformanceConfig(configFile) : undefined;
  const problem = commandProblem(target.command);
  if (problem) throw new TargetError(`the plugin command ${target.command} ${problem}`);
  return { target, conformance };
}

/** `channel test [dir] [-- command args]`; resolves to the exit code. */
export async function testCommand(
  dir: string | undefined,
  command: string[],
  options: TestCommandOptions,
): Promise<number> {
  // Once a signal stops the run, the failures that follow are the stop's doing, not the plugin's.
  const log = (line: string) => isStoppingAll() || (options.json ? process.stderr : process.stdout).write(`${line}\n`);
  let prepared;
  try {
    prepared = await prepare(dir, command, options);
  } catch (error) {
    if (error instanceof TargetError || error instanceof ConformanceConfigError) {
      process.stderr.write(`${chalk.red("channel test:")} ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const { target, conformance } = prepared;
  // The command line wins over the file, as it is the more specific of the two.
  const startTimeoutMs = options.startTimeout ?? conformance?.startTimeoutMs ?? 10_000;
  log(chalk.bold(`channel test: ${[target.command, ...target.args].join(" ")}`));
  log(
    chalk.dim(
      conformance
        ? `conformance config: ${conformance.source}`
        : "no conformance config: target.* checks are skipped (see docs/conformance.md)",
    ),
  );
  const started = performance.now();
  const env: CheckEnvironment = { target, conformance, startTimeoutMs, observed: {} };
  const results = await runConformance(env, {
    only: list(options.only),
    skip: list(options.skip),
    concurrency: options.concurrency,
    onResult: (r) => r.reason !== "not selected" && log(formatResult(r)),
  });
  const durationMs = Math.round(performance.now() - started);
  log(formatSummary(results, durationMs));
  if (options.json)
    process.stdout.write(
      `${JSON.stringify(jsonReport(target, results, durationMs, CLI_VERSION, env.observed), null, 2)}\n`,
    );
  const outcome = results.some((r) => r.status === "failed") ? 1 : 0;
  if (options.junit) {
    try {
      await mkdir(dirname(resolve(options.junit)), { recursive: true });
      await writeFile(options.junit, junitReport(results, durationMs));
    } catch (error) {
      process.stderr.write(
        `${chalk.red("channel test:")} could not write the JUnit report ${options.junit}: ${(error as Error).message}\n`,
      );
      return 2;
    }
  }
  return outcome;
}
