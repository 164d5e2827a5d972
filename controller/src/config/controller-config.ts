import * as z from "zod";
import { type ConsoleConfig, consoleConfig } from "../console/console-schema.js";
import type { EngineConfig, enginesConfig } from "../engines/engines-config.js";
import { type ExecutionConfig, executionConfig } from "../execution/execution-schema.js";
import { type GuardrailsConfig, guardrailsConfig } from "../guardrails/guardrails-schema.js";
import {
  type ChannelEntryConfig,
  type NotificationsConfig,
  notificationsConfig,
} from "../notify/notifications-schema.js";
import { type OpsConfig, opsConfig } from "../ops/ops-schema.js";
import { type RepositoriesConfig, repositoriesConfig } from "../repositories/repositories-schema.js";
import type { MissingSecret } from "../secrets/secret-not-found-error.js";
import { type SecretsConfig, secretsConfig } from "../secrets/secrets-schema.js";
import { type TicketingConfig, ticketingConfig } from "../sources/ticketing-schema.js";
import { type StoreConfig, storeConfig } from "../store/store-schema.js";
import type { ControllerWebhookConfig } from "../webhook/webhook-schema.js";
import { resolveFrom } from "./resolve-from.js";

export type {
  ChannelEntryConfig,
  ConsoleConfig,
  EngineConfig,
  ExecutionConfig,
  GuardrailsConfig,
  NotificationsConfig,
  OpsConfig,
  RepositoriesConfig,
  SecretsConfig,
  StoreConfig,
  TicketingConfig,
};

/**
 * What resolving errand.yaml needs beyond the validated document. The webhook and the engines are resolved first
 * (the file's cross-checks read them, before the rest is known to be valid), so they come in resolved.
 */
export interface ControllerConfigContext {
  /** The file it came from (absolute), undefined for the embedded defaults. */
  file: string | undefined;
  /** Folder relative paths start at: the file's, or the working folder. */
  baseDir: string;
  webhook: ControllerWebhookConfig;
  engines: z.output<ReturnType<typeof enginesConfig>>;
  /** Webhook signing secrets named by `{ secret: NAME }` that no source had. */
  missingSecrets: MissingSecret[];
}

/**
 * The whole errand.yaml resolved: each section's transform applied to the validated document (its `.out`, so the
 * document is not validated twice), in the shape the controller reads.
 */
export const controllerConfig = (ctx: ControllerConfigContext) =>
  z
    .object({
      notifications: notificationsConfig(ctx.baseDir).out,
      plugins: z.transform((p: { dir?: string | undefined }) => resolveFrom(ctx.baseDir, p.dir)),
      ticketing: ticketingConfig.out.optional(),
      execution: executionConfig(ctx.baseDir).out,
      guardrails: guardrailsConfig.out,
      repositories: repositoriesConfig.out,
      store: storeConfig(ctx.baseDir).out,
      ops: opsConfig.out,
      console: consoleConfig.out,
      secrets: secretsConfig(ctx.baseDir).out,
    })
    .transform((s) => ({
      /** The file it came from (absolute), undefined for the embedded defaults. */
      file: ctx.file,
      webhook: ctx.webhook,
      notifications: s.notifications,
      /** `plugins.dir`: an extra folder searched for installed channel plugins. */
      pluginsDir: s.plugins,
      ticketing: s.ticketing,
      engines: ctx.engines,
      execution: s.execution,
      guardrails: s.guardrails,
      repositories: s.repositories,
      store: s.store,
      ops: s.ops,
      console: s.console,
      secrets: s.secrets,
      /**
       * Webhook signing secrets named by `{ secret: NAME }` that no source had. The configuration cannot serve until
       * they are there: resolveSecrets reports them together with every other missing secret.
       */
      ...(ctx.missingSecrets.length > 0 ? { missingSecrets: ctx.missingSecrets } : {}),
    }));

/** The whole `errand.yaml`, validated, with defaults applied and paths made absolute. */
export type ControllerConfig = z.output<ReturnType<typeof controllerConfig>>;
