import { dirname, resolve } from "node:path";
import { type LoadedControllerConfig, parseControllerConfig } from "./parse-controller-config.js";
import { readConfigFile } from "./read-config-file.js";

/** Options of {@link loadControllerConfig}. */
export interface LoadControllerConfigOptions {
  /** Environment for secrets; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Working folder: relative paths of the embedded defaults start here; default `process.cwd()`. */
  cwd?: string;
  /** Leave the webhook's secret references unresolved (`errand runs` serves nothing and needs none). */
  skipWebhookSecrets?: boolean;
}

/**
 * Reads and validates errand.yaml. Without a file, the embedded defaults:
 * every key at its default, which opens no route and polls nothing.
 * Throws ConfigError (every problem, with keys and lines) when the file
 * cannot be used. Named secrets are resolved separately (resolveSecrets).
 */
export async function loadControllerConfig(
  file: string | undefined,
  options: LoadControllerConfigOptions = {},
): Promise<LoadedControllerConfig> {
  const cwd = options.cwd ?? process.cwd();
  if (file === undefined)
    return parseControllerConfig(null, {
      baseDir: cwd,
      env: options.env,
      skipWebhookSecrets: options.skipWebhookSecrets,
    });
  const path = resolve(cwd, file);
  const source = await readConfigFile(path);
  return parseControllerConfig(source.value, {
    file: path,
    baseDir: dirname(path),
    env: options.env,
    locate: source.locate,
    skipWebhookSecrets: options.skipWebhookSecrets,
  });
}
