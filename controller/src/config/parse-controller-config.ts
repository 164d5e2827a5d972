import { enginesConfig, promptTemplateProblems } from "../engines/engines-config.js";
import { type MissingSecret, missingSecretProblem } from "../secrets/secret-not-found-error.js";
import { createSecretStore } from "../secrets/secret-store.js";
import { secretsConfig } from "../secrets/secrets-schema.js";
import type { CodehostATriggers } from "../vendors/codehost-a/codehost-a-triggers-schema.js";
import { type CodehostARules, type ControllerWebhookConfig, webhookConfig } from "../webhook/webhook-schema.js";
import { ConfigError } from "./config-error.js";
import { type ControllerConfig, type ControllerConfigContext, controllerConfig } from "./controller-config.js";
import { inFileOrder, issueProblems, type PathProblem, type ProblemLocator, plainLocator } from "./path-problem.js";
import { readPromptTemplates } from "./read-prompt-templates.js";
import { resolveWebhookSecrets } from "./resolve-webhook-secrets.js";
import { type ControllerDocument, controllerSchema, SECTION_SCHEMAS } from "./schema/controller-schema.js";
import { resolved } from "./schema/kit.js";
import { webhookProblems } from "./webhook-problems.js";

/** Context of {@link parseControllerConfig}. */
export interface ParseContext {
  /** The file the document came from (absolute); undefined for the embedded defaults. */
  file?: string | undefined;
  /** Folder relative paths start at: the file's, or the working folder. */
  baseDir: string;
  /** Environment for secrets; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Adds YAML lines to problems (see parseYamlSource); default: keys only. */
  locate?: ProblemLocator;
  /** Leave the webhook's secret references unresolved, for commands that serve nothing. */
  skipWebhookSecrets?: boolean;
}

/** A validated configuration and the warnings to show at start. */
export interface LoadedControllerConfig {
  config: ControllerConfig;
  warnings: string[];
  /** The file as validated, in its own keys and units, defaults filled in (what `errand config check` prints). */
  document: ControllerDocument;
}

/**
 * Validates a whole errand.yaml document (plain values; null for an empty
 * file) against the one schema, applies defaults, resolves paths and the
 * webhook signing secrets. Throws one {@link ConfigError} listing every
 * problem. Named secrets (`*_secret` keys) are resolved later, by resolveSecrets.
 */
export function parseControllerConfig(document: unknown, ctx: ParseContext): LoadedControllerConfig {
  const locate = ctx.locate ?? plainLocator;
  const env = ctx.env ?? process.env;
  if (document !== null && document !== undefined && (typeof document !== "object" || Array.isArray(document))) {
    throw new ConfigError(
      [
        {
          key: "(top level)",
          message: "is not a mapping",
          fix: "start the file with top-level keys such as webhook: and engines:",
        },
      ],
      ctx.file,
    );
  }
  const root = (document ?? {}) as Record<string, unknown>;
  const problems: PathProblem[] = [];
  const warnings: string[] = [];
  // jitless: the file is parsed once; compiling a fast path for each object schema (new Function, outside the code cache) cost more than it saved.
  const parsed = controllerSchema.safeParse(root, { reportInput: true, jitless: true });
  if (!parsed.success) problems.push(...issueProblems(parsed.error.issues));
  // Sections that are valid on their own still get their cross-checks when another section is broken.
  const doc = parsed.success ? parsed.data : sectionsThatParse(root);

  const secrets = doc.secrets && resolved(secretsConfig(ctx.baseDir), doc.secrets);
  const secretsDir = secrets?.dir;
  const store = createSecretStore({ env, dir: secretsDir });
  const missing: MissingSecret[] = [];
  const values = resolveWebhookSecrets(
    root.webhook,
    { env, baseDir: ctx.baseDir, store, missing, skip: ctx.skipWebhookSecrets === true },
    problems,
    warnings,
  );
  const webhook =
    doc.webhook
    && resolved(webhookConfig(values, "controller", codehostARules(doc), codehostATriggers(doc)), doc.webhook);
  if (doc.webhook !== undefined && webhook !== undefined)
    webhookProblems(doc.webhook, webhook, values, "controller", problems, warnings);
  const templates = readPromptTemplates(root.engines, ctx.baseDir, problems);
  const engines = doc.engines && resolved(enginesConfig(ctx.baseDir, templates), doc.engines);
  if (engines !== undefined) problems.push(...promptTemplateProblems(engines.byName));
  problems.push(...crossSectionProblems(root, doc, webhook, engines));
  if (doc.guardrails?.allowed_repos.length === 0) {
    warnings.push(
      "guardrails.allowed_repos is empty: runs may target every repository; list the repositories (or globs) agents may work on",
    );
  }
  if (problems.length === 0 && (!parsed.success || webhook === undefined || engines === undefined)) {
    problems.push({
      path: [],
      message: "could not be read as a configuration",
      fix: "run errand config check and see docs/configuration.md",
    });
  }
  if (problems.length > 0 || !parsed.success || webhook === undefined || engines === undefined) {
    // Missing named secrets join the other problems; without other problems, resolveSecrets reports them with the rest.
    for (const m of missing) {
      const { message, fix } = missingSecretProblem(m);
      problems.push({ path: (m.keys[0] as string).split("."), message, fix });
    }
    throw new ConfigError(inFileOrder(problems.map(locate)), ctx.file);
  }
  const d = parsed.data;
  const config = controllerConfig({
    file: ctx.file,
    baseDir: ctx.baseDir,
    webhook,
    engines,
    missingSecrets: missing,
  }).parse(d);
  return { config, warnings, document: d };
}

/** Problems between sections: tickets with no engine to run them, the webhook and ops servers on one port. */
function crossSectionProblems(
  root: Record<string, unknown>,
  doc: Partial<ControllerDocument>,
  webhook: ControllerWebhookConfig | undefined,
  engines: ControllerConfigContext["engines"] | undefined,
): PathProblem[] {
  const problems: PathProblem[] = [];
  if (engines !== undefined && Object.keys(engines.byName).length === 0 && doc.engines !== undefined) {
    const inputs = [
      webhook?.enabled ? "the webhook" : undefined,
      root.ticketing != null ? "ticketing" : undefined,
    ].filter(Boolean);
    if (inputs.length > 0) {
      problems.push({
        path: ["engines"],
        message: `has no engine, but tickets can arrive (from ${inputs.join(" and ")})`,
        fix: "add an engine, e.g. engines: { claude_code: { auth: { api_key_secret: anthropic-api-key } } } or a command engine",
      });
    }
  }
  if (webhook?.enabled && doc.ops !== undefined && clash(webhook.host, webhook.port, doc.ops.host, doc.ops.port)) {
    problems.push({
      path: ["ops", "port"],
      message: `is ${doc.ops.port}, the port the webhook server listens on too`,
      fix: "give ops.port and webhook.port different ports (defaults: 9090 and 8080)",
    });
  }
  return problems;
}

/** Spec 2.5: an issue must carry the trigger labels, whichever way it arrives; the webhook judges as the poller does. */
function codehostARules(doc: Partial<ControllerDocument>): CodehostARules | undefined {
  if (doc.ticketing?.backend !== "codehost_a") return undefined;
  const { labels, exclude_labels, in_progress_label, failed_label } = doc.ticketing.config;
  return { labels, exclude_labels, in_progress_label, failed_label };
}

/** With `repositories.codehost_a`, its trigger rules decide which code host A events start runs. */
function codehostATriggers(doc: Partial<ControllerDocument>): CodehostATriggers | undefined {
  const codehostA = doc.repositories?.codehost_a;
  if (codehostA === undefined) return undefined;
  const { label, assignee, mention } = codehostA.triggers;
  return { label, assignee, mention, ...(codehostA.bot_login === undefined ? {} : { botLogin: codehostA.bot_login }) };
}

function sectionsThatParse(root: Record<string, unknown>): Partial<ControllerDocument> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(SECTION_SCHEMAS)) {
    const result = schema.safeParse(root[name]);
    if (result.success) out[name] = result.data;
  }
  return out as Partial<ControllerDocument>;
}

/** True when two listeners would want the same address: one port (not 0, which picks a free one) on overlapping hosts. */
function clash(hostA: string, portA: number, hostB: string, portB: number): boolean {
  const any = (h: string) => h === "0.0.0.0" || h === "::";
  return portA !== 0 && portA === portB && (hostA === hostB || any(hostA) || any(hostB));
}
