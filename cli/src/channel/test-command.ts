import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import chalk from "chalk";
import { CONFORMANCE_FILE, type ConformanceConfig, ConformanceConfigError, loadConformanceConfig } from "../conformance/config.js";
import { type PluginTarget, TargetError, targetFromCommand, targetFromPackage } from "../conformance/plugin-target.js";
import { formatResult, formatSummary, jsonReport, junitReport } from "../conformance/report.js";
import { runConformance } from "../conformance/runner.js";
import { commandExists } from "../util/command-exists.js";
import { CLI_VERSION } from "../util/version.js";

/** Options of `channel test`. */
export interface TestCommandOptions {
  config?: string;
  json?: boolean;
  junit?: string;
  only?: string;
  skip?: string;
  startTimeout?: string;
  concurrency?: string;
}

const list = (value: string | undefined) => value?.split(",").map((s) => s.trim()).filter(Boolean);

/** `channel test [dir] [-- command args]`; resolves to the exit code. */
export async function testCommand(dir: string | undefined, command: string[], options: TestCommandOptions): Promise<number> {
  const log = (line: string) => (options.json ? process.stderr : process.stdout).write(`${line}\n`);
  let target: PluginTarget;
  let conformance: ConformanceConfig | undefined;
  try {
    target = command.length > 0 ? targetFromCommand(command) : await targetFromPackage(dir ?? ".");
    const configFile = options.config ? resolve(options.config) : command.length === 0 ? join(target.cwd, CONFORMANCE_FILE) : undefined;
    if (options.config && !existsSync(configFile!)) throw new ConformanceConfigError(`the conformance config ${options.config} does not exist`);
    if (configFile && existsSync(configFile)) conformance = await loadConformanceConfig(configFile);
    if (!commandExists(target.command)) throw new TargetError(`the plugin command ${target.command} does not exist or is not on PATH`);
  } catch (error) {
    if (error instanceof TargetError || error instanceof ConformanceConfigError) {
      process.stderr.write(`${chalk.red("channel test:")} ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const startTimeoutMs = Number(options.startTimeout ?? conformance?.startTimeoutMs ?? 10_000);
  log(chalk.bold(`channel test: ${[target.command, ...target.args].join(" ")}`));
  log(chalk.dim(conformance ? `conformance config: ${conformance.source}` : "no conformance config: target.* checks are skipped (see docs/conformance.md)"));
  const started = performance.now();
  const results = await runConformance(
    { target, conformance, startTimeoutMs },
    {
      only: list(options.only),
      skip: list(options.skip),
      concurrency: options.concurrency ? Number(options.concurrency) : undefined,
      onResult: (r) => r.reason !== "not selected" && log(formatResult(r)),
    },
  );
  const durationMs = Math.round(performance.now() - started);
  log(formatSummary(results, durationMs));
  if (options.json) process.stdout.write(`${JSON.stringify(jsonReport(target, results, durationMs, CLI_VERSION), null, 2)}\n`);
  if (options.junit) {
    await mkdir(dirname(resolve(options.junit)), { recursive: true });
    await writeFile(options.junit, junitReport(results, durationMs));
  }
  return results.some((r) => r.status === "failed") ? 1 : 0;
}
