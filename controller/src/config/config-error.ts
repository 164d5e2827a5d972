import { InvalidConfigError } from "@errand/channel-sdk";

/** One thing wrong with a configuration, named by its dotted key. */
export interface ConfigProblem {
  /** Dotted key, e.g. `webhook.secrets.codehost_a`. */
  key: string;
  /** What is wrong with it. */
  message: string;
  /** How to fix it. */
  fix: string;
}

/**
 * Thrown when a configuration cannot be used. Carries every problem found,
 * so a user fixes them all in one go rather than one per start.
 */
export class ConfigError extends InvalidConfigError {
  override readonly name: string = "ConfigError";
  readonly problems: readonly ConfigProblem[];
  readonly file: string | undefined;

  constructor(problems: readonly ConfigProblem[], file?: string, options: { cause?: unknown } = {}) {
    const where = file ? ` in ${file}` : "";
    const lines = problems.map((p) => `  - ${p.key}: ${p.message}; ${p.fix}`);
    super(`invalid configuration${where}:\n${lines.join("\n")}`, {
      cause: options.cause,
      hint: problems[0]?.fix,
    });
    this.problems = problems;
    this.file = file;
  }
}
