import { dirname, resolve } from "node:path";
import { type ParsedWebhookConfig, parseWebhookConfig } from "./parse-webhook-config.js";
import { readConfigFile } from "./read-config-file.js";

/** Options of {@link loadWebhookConfig}. */
export interface LoadConfigOptions {
  /** Environment for `{ env: NAME }` and `{ secret: NAME }` secrets; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Reads a YAML configuration file and validates its `webhook` section for
 * `errand webhook serve`. Throws {@link ConfigError} naming the file, each
 * bad key (with its line) and its fix.
 */
export async function loadWebhookConfig(file: string, options: LoadConfigOptions = {}): Promise<ParsedWebhookConfig> {
  const path = resolve(file);
  const source = await readConfigFile(path);
  return parseWebhookConfig(
    source.value,
    { env: options.env ?? process.env, baseDir: dirname(path) },
    path,
    source.locate,
  );
}
