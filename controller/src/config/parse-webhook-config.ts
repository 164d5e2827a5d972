import * as z from "zod";
import { createSecretStore } from "../secrets/secret-store.js";
import { buildWebhookConfig } from "./build-webhook-config.js";
import { ConfigError } from "./config-error.js";
import { inFileOrder, issueProblems, type PathProblem, type ProblemLocator, plainLocator } from "./path-problem.js";
import { resolveFrom } from "./resolve-from.js";
import { resolveWebhookSecrets } from "./resolve-webhook-secrets.js";
import { SECTION_SCHEMAS } from "./schema/controller-schema.js";
import type { WebhookConfig } from "./webhook-config.js";

/** A validated webhook configuration and the warnings to show at start. */
export interface ParsedWebhookConfig {
  config: WebhookConfig;
  warnings: string[];
}

/** Where `{ env }`, `{ file }` and `{ secret }` references are resolved. */
export interface SecretContext {
  env: NodeJS.ProcessEnv;
  /** The config file's folder: relative paths start there. */
  baseDir: string;
}

/** `errand webhook serve` reads `webhook` (and `secrets.dir` for `{ secret: NAME }`); other sections belong to the controller. */
const SERVE_SCHEMA = z.looseObject({ webhook: SECTION_SCHEMAS.webhook, secrets: SECTION_SCHEMAS.secrets });

/**
 * Validates the `webhook` section of a configuration document for
 * `errand webhook serve` (the whole document is passed: other top-level
 * sections are left alone). Throws one {@link ConfigError} listing every
 * problem. Unlike the controller, it serves the tracker B route without a
 * secret and a generic source without auth_mode, with a warning.
 */
export function parseWebhookConfig(document: unknown, ctx: SecretContext, file?: string, locate: ProblemLocator = plainLocator): ParsedWebhookConfig {
  if (document !== null && document !== undefined && (typeof document !== "object" || Array.isArray(document))) {
    throw new ConfigError([{ key: "(top level)", message: "is not a mapping", fix: "start the file with webhook: and indented keys" }], file);
  }
  const root = (document ?? {}) as Record<string, unknown>;
  const problems: PathProblem[] = [];
  const warnings: string[] = [];
  const parsed = SERVE_SCHEMA.safeParse(root, { reportInput: true });
  if (!parsed.success) problems.push(...issueProblems(parsed.error.issues));
  const dir = SECTION_SCHEMAS.secrets.safeParse(root.secrets).data?.dir;
  const store = createSecretStore({ env: ctx.env, dir: resolveFrom(ctx.baseDir, dir) });
  const values = resolveWebhookSecrets(root.webhook, { ...ctx, store }, problems, warnings);
  const config = parsed.success ? buildWebhookConfig(parsed.data.webhook, values, "serve", problems, warnings) : undefined;
  if (problems.length > 0 || config === undefined) throw new ConfigError(inFileOrder(problems.map(locate)), file);
  const { allowUnsignedTrackerB: _, ...webhook } = config;
  return { config: webhook, warnings };
}
