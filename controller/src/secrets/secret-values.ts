import type { ControllerConfig } from "../config/controller-config.js";
import type { ResolvedSecrets } from "./resolve-secrets.js";

/**
 * Every secret value a running controller holds: the resolved named secrets
 * and the webhook signing secrets. Give them to the logger (`secrets`) or to
 * `createSecretMask` (@errand/channel-sdk/host) so they never appear in logs or errors.
 */
export function secretValues(config: ControllerConfig, resolved: ResolvedSecrets): string[] {
  const values = [...Object.values(resolved), ...Object.values(config.webhook.secrets)];
  if (config.webhook.generic?.secret !== undefined) values.push(config.webhook.generic.secret);
  return values.filter((v): v is string => typeof v === "string" && v !== "");
}
