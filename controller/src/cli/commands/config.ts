import { stringify } from "yaml";
import { ConfigError, type ConfigProblem, formatProblem } from "../../config/config-error.js";
import { controllerConfigJsonSchema } from "../../config/controller-config-json-schema.js";
import { findConfigFile } from "../../config/find-config-file.js";
import { loadControllerConfig } from "../../config/load-controller-config.js";
import { printableConfig } from "../../config/mask-config.js";
import { resolveSecrets } from "../../secrets/resolve-secrets.js";
import { missingSecretProblem, SecretNotFoundError } from "../../secrets/secret-not-found-error.js";
import { pluginChannelProblems, startChecks } from "./start-checks.js";

/** What a command printed and how it ends. */
export interface CommandOutput {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link runConfigCheck}. */
export interface ConfigCheckOptions {
  /** --config; default `errand.yaml` in `cwd` when present, else the embedded defaults. */
  config?: string | undefined;
  json?: boolean | undefined;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/**
 * `errand config check`: validates the configuration, resolves every secret
 * it names, makes the checks `errand run` makes at start (startChecks, and
 * pluginChannelProblems: each plugin channel started and handshaken), and
 * prints the resolved configuration in errand.yaml's own keys with secret
 * values masked (printableConfig; YAML, or with `json` one JSON object
 * `{ ok, file, config, warnings, problems }`).
 * Problems go to stderr, one per line with its fix; exit code 1 when there are any.
 */
export async function runConfigCheck(options: ConfigCheckOptions = {}): Promise<CommandOutput> {
  const env = options.env ?? process.env;
  const file = findConfigFile(options.config, options.cwd);
  const stderr: string[] = [];
  let problems: ConfigProblem[] = [];
  let output: { config: unknown; warnings: string[] } | undefined;
  try {
    const { config, warnings, document } = await loadControllerConfig(file, { env, cwd: options.cwd });
    const start = await startChecks(config, env);
    problems = [...missingSecretProblems(() => resolveSecrets(config, { env })), ...start.problems];
    // A plugin's own config schema runs in the plugin: with everything else in order, start the plugins as run does.
    if (problems.length === 0) problems = await pluginChannelProblems(config, resolveSecrets(config, { env }));
    output = { config: printableConfig(document, config), warnings: [...warnings, ...start.warnings] };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems = [...error.problems];
  }
  const source = file ?? "the embedded defaults (no --config and no errand.yaml here)";
  for (const warning of output?.warnings ?? []) stderr.push(`warning: ${warning}`);
  if (problems.length > 0) {
    stderr.push(`errand: ${problems.length === 1 ? "a problem" : `${problems.length} problems`} in ${source}:`);
    for (const problem of problems) stderr.push(`  ${formatProblem(problem)}`);
  } else {
    stderr.push(`errand: ${source} is valid`);
  }
  const ok = problems.length === 0;
  let stdout = "";
  if (options.json)
    stdout = `${JSON.stringify({ ok, file: file ?? null, config: ok ? output?.config : null, warnings: output?.warnings ?? [], problems }, null, 2)}\n`;
  else if (ok) stdout = stringify(output?.config);
  return { exitCode: ok ? 0 : 1, stdout, stderr: `${stderr.join("\n")}\n` };
}

/** `errand config schema`: the JSON Schema of errand.yaml. */
export function runConfigSchema(): CommandOutput {
  return { exitCode: 0, stdout: `${JSON.stringify(controllerConfigJsonSchema(), null, 2)}\n`, stderr: "" };
}

function missingSecretProblems(resolve: () => unknown): ConfigProblem[] {
  try {
    resolve();
    return [];
  } catch (error) {
    if (!(error instanceof SecretNotFoundError)) throw error;
    return error.missing.map(missingSecretProblem);
  }
}
