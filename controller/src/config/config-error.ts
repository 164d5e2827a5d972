import { ControllerError, ControllerErrorCode } from "../errors.js";

/** One thing wrong with a configuration, named by its dotted key. */
export interface ConfigProblem {
  /** Dotted key, e.g. `webhook.secrets.codehost_a` or `notifications.channels[1].backend`. */
  key: string;
  /** What is wrong with it. */
  message: string;
  /** How to fix it. */
  fix: string;
  /** Line in the YAML file (1-based), when known. */
  line?: number;
}

/** One line for a problem: `key (line N): message; fix`. */
export function formatProblem(problem: ConfigProblem): string {
  const where = problem.line === undefined ? "" : ` (line ${problem.line})`;
  return `${problem.key}${where}: ${problem.message}; ${problem.fix}`;
}

/**
 * Thrown when a configuration cannot be used. Carries every problem found,
 * so a user fixes them all in one go rather than one per start.
 */
export class ConfigError extends ControllerError {
  override readonly name: string = "ConfigError";
  readonly problems: readonly ConfigProblem[];
  readonly file: string | undefined;

  constructor(problems: readonly ConfigProblem[], file?: string, options: { cause?: unknown } = {}) {
    const where = file ? ` in ${file}` : "";
    const lines = problems.map((p) => `  - ${formatProblem(p)}`);
    super(ControllerErrorCode.InvalidConfig, `invalid configuration${where}:\n${lines.join("\n")}`, {
      cause: options.cause,
      hint: problems[0]?.fix,
    });
    this.problems = problems;
    this.file = file;
  }
}
