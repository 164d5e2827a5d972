import type { EngineConfig } from "../engines/engines-config.js";
import type { ExecutionConfig } from "../execution/execution-schema.js";
import type { GuardrailsConfig } from "../guardrails/guardrails-schema.js";
import type { ChannelEntryConfig, NotificationsConfig } from "../notify/notifications-schema.js";
import type { OpsConfig } from "../ops/ops-schema.js";
import type { MissingSecret } from "../secrets/secret-not-found-error.js";
import type { SecretsConfig } from "../secrets/secrets-schema.js";
import type { TicketingConfig } from "../sources/ticketing-schema.js";
import type { StoreConfig } from "../store/store-schema.js";
import type { ControllerWebhookConfig } from "../webhook/webhook-schema.js";

export type {
  ChannelEntryConfig,
  EngineConfig,
  ExecutionConfig,
  GuardrailsConfig,
  NotificationsConfig,
  OpsConfig,
  SecretsConfig,
  StoreConfig,
  TicketingConfig,
};

/** The whole `errand.yaml`, validated, with defaults applied and paths made absolute. */
export interface ControllerConfig {
  /** The file it came from (absolute), undefined for the embedded defaults. */
  file: string | undefined;
  webhook: ControllerWebhookConfig;
  notifications: NotificationsConfig;
  /** `plugins.dir`: an extra folder searched for installed channel plugins. */
  pluginsDir: string | undefined;
  ticketing: TicketingConfig | undefined;
  engines: { default: string; byName: Record<string, EngineConfig> };
  execution: ExecutionConfig;
  guardrails: GuardrailsConfig;
  store: StoreConfig;
  ops: OpsConfig;
  secrets: SecretsConfig;
  /**
   * Webhook signing secrets named by `{ secret: NAME }` that no source had.
   * The configuration cannot serve until they are there: resolveSecrets
   * reports them together with every other missing secret.
   */
  missingSecrets?: MissingSecret[];
}
