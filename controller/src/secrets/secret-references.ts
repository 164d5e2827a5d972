import type { ControllerConfig } from "../config/controller-config.js";
import { collectSecretKeys, type SecretReference } from "./collect-secret-keys.js";

export { collectSecretKeys, type SecretReference };

/**
 * Every secret a configuration names, in file order: the channels' `*_secret`
 * keys, the engines' `auth.api_key_secret`, `ticketing.config.token_secret`,
 * `store.url_secret`, the repository credentials (`repositories.codehost_a`), `guardrails.approval_signing_secret`
 * and `console.token_secret`. (Webhook signing secrets are resolved while the
 * configuration is read: the webhook settings carry their values.)
 */
export function secretReferences(config: ControllerConfig): SecretReference[] {
  const refs: SecretReference[] = [];
  for (const channel of config.notifications.channels) {
    collectSecretKeys(channel.config, `notifications.channels[${channel.index}].config`, refs);
  }
  if (config.ticketing?.tokenSecret !== undefined)
    refs.push({ name: config.ticketing.tokenSecret, key: "ticketing.config.token_secret" });
  for (const engine of Object.values(config.engines.byName)) {
    if (engine.apiKeySecret !== undefined)
      refs.push({ name: engine.apiKeySecret, key: `engines.${engine.name}.auth.api_key_secret` });
  }
  if (config.store.backend === "postgres") refs.push({ name: config.store.urlSecret, key: "store.url_secret" });
  const codehostA = config.repositories.codehostA;
  if (codehostA?.token_secret !== undefined)
    refs.push({ name: codehostA.token_secret, key: "repositories.codehost_a.token_secret" });
  if (codehostA?.app !== undefined)
    refs.push({ name: codehostA.app.private_key_secret, key: "repositories.codehost_a.app.private_key_secret" });
  const signing = config.guardrails.approvalSigningSecret;
  if (signing !== undefined) refs.push({ name: signing, key: "guardrails.approval_signing_secret" });
  if (config.console.enabled && config.console.tokenSecret !== undefined)
    refs.push({ name: config.console.tokenSecret, key: "console.token_secret" });
  return refs;
}
