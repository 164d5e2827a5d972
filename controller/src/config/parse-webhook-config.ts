import * as z from "zod";
import { createSecretStore } from "../secrets/secret-store.js";
import { secretsSection } from "../secrets/secrets-schema.js";
import { type WebhookConfig, webhookConfig, webhookSchema } from "../webhook/webhook-schema.js";
import { ConfigError } from "./config-error.js";
import { inFileOrder, issueProblems, type PathProblem, type ProblemLocator, plainLocator } from "./path-problem.js";
import { resolveFrom } from "./resolve-from.js";
import { resolveWebhookSecrets } from "./resolve-webhook-secrets.js";
import { resolved, withDefaults } from "./schema/kit.js";
import { webhookProblems } from "./webhook-problems.js";

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

/**
 * `errand webhook serve` reads `webhook` (and `secrets.dir` for `{ secret: NAME }`); other sections belong to the
 * controller. Built from the two sections' own schemas, as the controller's schema builds them, without building
 * the others: start-up time.
 */
const SECRETS_SCHEMA = withDefaults(secretsSection);
const SERVE_SCHEMA = z.looseObject({ webhook: withDefaults(webhookSchema), secrets: SECRETS_SCHEMA });

/**
 * Validates the `webhook` section of a configuration document for
 * `errand webhook serve` (the whole document is passed: other top-level
 * sections are left alone). Throws one {@link ConfigError} listing every
 * problem. Unlike the controller, it serves the tracker B route without a
 * secret and a generic source without auth_mode, with a warning.
 */
export function parseWebhookConfig(
  document: unknown,
  ctx: SecretContext,
  file?: string,
  locate: ProblemLocator = plainLocator,
): ParsedWebhookConfig {
  if (document !== null && document !== undefined && (typeof document !== "object" || Array.isArray(document))) {
    throw new ConfigError(
      [{ key: "(top level)", message: "is not a mapping", fix: "start the file with webhook: and indented keys" }],
      file,
    );
  }
  const root = (document ?? {}) as Record<string, unknown>;
  const problems: PathProblem[] = [];
  const warnings: string[] = [];
  // jitless: parsed once (see parse-controller-config.ts).
  const parsed = SERVE_SCHEMA.safeParse(root, { reportInput: true, jitless: true });
  if (!parsed.success) problems.push(...issueProblems(parsed.error.issues));
  const dir = SECRETS_SCHEMA.safeParse(root.secrets).data?.dir;
  const store = createSecretStore({ env: ctx.env, dir: resolveFrom(ctx.baseDir, dir) });
  const values = resolveWebhookSecrets(root.webhook, { ...ctx, store }, problems, warnings);
  const section = parsed.success ? parsed.data.webhook : undefined;
  const config = section && resolved(webhookConfig(values, "serve"), section);
  if (section !== undefined && config !== undefined)
    webhookProblems(section, config, values, "serve", problems, warnings);
  if (problems.length > 0 || config === undefined) throw new ConfigError(inFileOrder(problems.map(locate)), file);
  const { allowUnsignedTrackerB: _, ...webhook } = config;
  return { config: webhook, warnings };
}
