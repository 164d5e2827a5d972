import chalk from "chalk";
import { TargetError } from "../conformance/plugin-target.js";
import { lintPackage } from "../lint/lint-package.js";

/** `channel lint [dir]`; resolves to the exit code (1 when an error was found). */
export async function lintCommand(dir: string, options: { json?: boolean }): Promise<number> {
  let findings;
  try {
    findings = await lintPackage(dir);
  } catch (error) {
    if (error instanceof TargetError) {
      process.stderr.write(`${chalk.red("channel lint:")} ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ findings }, null, 2)}\n`);
  } else if (findings.length === 0) {
    process.stdout.write(`${chalk.green("✓")} ${dir}: ready to publish\n`);
  } else {
    for (const f of findings) {
      const mark = f.severity === "error" ? chalk.red("✗ error  ") : chalk.yellow("! warning");
      process.stdout.write(`${mark} [${f.rule}] ${f.message}\n          fix: ${f.fix}\n`);
    }
  }
  return findings.some((f) => f.severity === "error") ? 1 : 0;
}
