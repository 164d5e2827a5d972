import type { ControllerConfig } from "../config/controller-config.js";
import { findConfigFile } from "../config/find-config-file.js";
import { loadControllerConfig } from "../config/load-controller-config.js";
import { resolveAllSecrets } from "../secrets/resolve-all-secrets.js";

/** A loaded configuration, its warnings and, when asked for, its resolved secrets. */
export interface LoadedConfig {
  config: ControllerConfig;
  warnings: string[];
  secrets: Record<string, string>;
}

/**
 * Loads and validates the configuration (and resolves its secrets when
 * `withSecrets`). Throws the ControllerError to print; commands turn it into
 * one message on stderr and exit code 1.
 */
export async function loadForCli(given: string | undefined, withSecrets: boolean): Promise<LoadedConfig> {
  const { config, warnings } = await loadControllerConfig(findConfigFile(given), { skipWebhookSecrets: !withSecrets });
  const secrets = withSecrets ? await resolveAllSecrets(config, process.env) : {};
  return { config, warnings, secrets };
}

export { reportError } from "./report-error.js";
