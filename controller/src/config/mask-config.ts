import { MASK } from "../secrets/mask-secrets.js";
import type { ControllerConfig } from "./controller-config.js";

/**
 * A copy of the configuration fit for printing: the webhook signing
 * secrets (the only secret values it holds) read `***`. Names of secrets
 * (`*_secret` keys) are kept: they say where a value comes from, not what it is.
 */
export function maskConfig(config: ControllerConfig): ControllerConfig {
  const copy = structuredClone(config);
  for (const source of Object.keys(copy.webhook.secrets) as Array<keyof ControllerConfig["webhook"]["secrets"]>) {
    copy.webhook.secrets[source] = MASK;
  }
  if (copy.webhook.generic?.secret !== undefined) copy.webhook.generic.secret = MASK;
  return copy;
}
