import type { EngineKind } from "../engines/engine.js";
import type { ExecutionConfig } from "../execution/execution-schema.js";
import type { GuardrailsConfig } from "../guardrails/guardrails-schema.js";
import type { ChannelEntryConfig, NotificationsConfig } from "../notify/notifications-schema.js";
import type { OpsConfig } from "../ops/ops-schema.js";
import type { MissingSecret } from "../secrets/secret-not-found-error.js";
import type { SecretsConfig } from "../secrets/secrets-schema.js";
import type { TicketingConfig } from "../sources/ticketing-schema.js";
import type { StoreConfig } from "../store/store-schema.js";
import type { WebhookConfig } from "./webhook-config.js";

export type { ChannelEntryConfig, ExecutionConfig, GuardrailsConfig, NotificationsConfig, OpsConfig, SecretsConfig, StoreConfig, TicketingConfig };

/** `engines.<name>`, resolved. */
export interface EngineConfig {
  name: string;
  kind: EngineKind;
  /** `command` engines: the executable and its arguments. Presets: an override of the CLI's path (default its usual name on PATH). */
  command: string[] | undefined;
  /** Extra arguments appended to a preset's own. */
  args: string[];
  /** `auth.method`: `api_key` (the key from `auth.api_key_secret`) or `none`. */
  authMethod: "api_key" | "none";
  /** Secret name from `auth.api_key_secret`. */
  apiKeySecret: string | undefined;
  /** `command` engines: how the prompt is given (`stdin` or `file`; the file path is always in $ERRAND_PROMPT_FILE). */
  promptVia: "stdin" | "file";
  /** Prompt template (the built-in one when unset); placeholders in docs/operators-guide.md. */
  promptTemplate: string | undefined;
  /** Extra environment variables for the engine process (no secrets: those come by name). */
  env: Record<string, string>;
  /** Container image for cluster backends. */
  image: string | undefined;
  /** Preset option: model name passed to the CLI, when set. */
  model: string | undefined;
  /** Preset option (claude_code): the agent's turn limit, when set. */
  maxTurns?: number | undefined;
  /** Preset option (claude_code): the only tools the agent may use, when set. */
  allowedTools?: string[] | undefined;
  /** Preset option (claude_code): tools the agent may not use, when set. */
  disallowedTools?: string[] | undefined;
}

/** The whole `errand.yaml`, validated, with defaults applied and paths made absolute. */
export interface ControllerConfig {
  /** The file it came from (absolute), undefined for the embedded defaults. */
  file: string | undefined;
  webhook: WebhookConfig & { allowUnsignedTrackerB: boolean };
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
