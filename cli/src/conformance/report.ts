import chalk from "chalk";
import { type CheckResult, groupOf } from "./check.js";
import type { PluginTarget } from "./plugin-target.js";

/** The machine-readable report written by `--json`. */
export interface JsonReport {
  tool: "channel test";
  version: string;
  /** `name` and `version` come from the plugin's Handshake, when one succeeded. */
  plugin: { command: string; args: string[]; name?: string; version?: string };
  summary: { passed: number; failed: number; skipped: number; durationMs: number };
  checks: CheckResult[];
}

/** Counts of a run. */
export function summarize(results: CheckResult[], durationMs: number): JsonReport["summary"] {
  const count = (s: CheckResult["status"]) => results.filter((r) => r.status === s).length;
  return { passed: count("passed"), failed: count("failed"), skipped: count("skipped"), durationMs };
}

/** Builds the `--json` report. */
export function jsonReport(
  target: PluginTarget,
  results: CheckResult[],
  durationMs: number,
  version: string,
  observed: { name?: string; version?: string } = {},
): JsonReport {
  return {
    tool: "channel test",
    version,
    plugin: { command: target.command, args: target.args, ...observed },
    summary: summarize(results, durationMs),
    checks: results,
  };
}

/** One check as the human-readable lines `channel test` prints. */
export function formatResult(result: CheckResult): string {
  const time = chalk.dim(`${result.durationMs} ms`);
  if (result.status === "passed") return `${chalk.green("✓")} ${result.id} ${chalk.dim(result.title)} ${time}`;
  if (result.status === "skipped") return `${chalk.yellow("-")} ${result.id} ${chalk.dim(`skipped: ${result.reason}`)}`;
  const indent = (text: string) => text.replace(/\n/g, "\n      ");
  return [
    `${chalk.red("✗")} ${result.id} ${result.title} ${time}`,
    `    ${chalk.bold("expected:")} ${indent(result.expected ?? "")}`,
    `    ${chalk.bold("actual:  ")} ${indent(result.actual ?? "")}`,
    `    ${chalk.bold("fix:     ")} ${indent(result.fix ?? "")}`,
  ].join("\n");
}

/** The closing summary line. */
export function formatSummary(results: CheckResult[], durationMs: number): string {
  const s = summarize(results, durationMs);
  const parts = [
    chalk.green(`${s.passed} passed`),
    s.failed ? chalk.red(`${s.failed} failed`) : "",
    s.skipped ? chalk.yellow(`${s.skipped} skipped`) : "",
  ];
  return `\n${parts.filter(Boolean).join(", ")} in ${(durationMs / 1000).toFixed(1)} s`;
}

const xml = (text: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these characters
  text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "").replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A JUnit XML report: one testcase per check. */
export function junitReport(results: CheckResult[], durationMs: number): string {
  const s = summarize(results, durationMs);
  const cases = results.map((r) => {
    const open = `    <testcase name="${xml(r.id)}" classname="${xml(groupOf(r.id))}" time="${(r.durationMs / 1000).toFixed(3)}">`;
    if (r.status === "passed") return `${open}</testcase>`;
    if (r.status === "skipped") return `${open}<skipped message="${xml(r.reason ?? "")}"/></testcase>`;
    const body = `expected: ${r.expected}\nactual: ${r.actual}\nfix: ${r.fix}`;
    return `${open}\n      <failure message="${xml(r.actual ?? "")}" type="${xml(r.id)}">${xml(body)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="channel test" tests="${results.length}" failures="${s.failed}" skipped="${s.skipped}" time="${(durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="channel test" tests="${results.length}" failures="${s.failed}" skipped="${s.skipped}" time="${(durationMs / 1000).toFixed(3)}">`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
