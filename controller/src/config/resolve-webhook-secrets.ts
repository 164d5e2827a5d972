import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { secretEnvName } from "../secrets/secret-env-name.js";
import type { MissingSecret } from "../secrets/secret-not-found-error.js";
import type { SecretStore } from "../secrets/secret-store.js";
import type { PathProblem } from "./path-problem.js";
import { secretRef } from "./schema/secret-ref-schema.js";
import { SECRET_KEY_ALIASES, type SecretSourceId } from "./webhook-config.js";

/** Where webhook secret references are resolved. */
export interface SecretRefContext {
  env: NodeJS.ProcessEnv;
  /** Folder that relative `{ file: PATH }` references start at: the config file's. */
  baseDir: string;
  /** Resolves `{ secret: NAME }`. */
  store: SecretStore;
  /**
   * When given, a `{ secret: NAME }` that no source has is added here (its
   * value becomes {@link UNRESOLVED_SECRET}) rather than to the problems, so
   * that it is reported with every other missing secret (resolveSecrets).
   */
  missing?: MissingSecret[];
  /**
   * Leave references unresolved (each becomes {@link UNRESOLVED_SECRET}):
   * for commands that read the configuration but serve nothing (`errand runs`).
   */
  skip?: boolean;
}

/** The value a skipped reference gets; never a usable secret. */
export const UNRESOLVED_SECRET = "[secret not resolved]";

/** The webhook signing secrets, resolved. */
export interface WebhookSecretValues {
  secrets: Partial<Record<SecretSourceId, string>>;
  generic: string | undefined;
  /** Keys whose secret is written in the file itself. */
  inline: string[];
}

type Mapping = Record<string, unknown>;
const REF = secretRef("webhook secret");
const isMapping = (v: unknown): v is Mapping => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Resolves the secrets of the webhook section as written (inline, `{ secret }`,
 * `{ env }`, `{ file }`). Works on the raw section, so that a missing variable
 * or file is reported together with every other problem of the file; values
 * that are malformed are left to the schema's problems.
 */
export function resolveWebhookSecrets(
  webhook: unknown,
  ctx: SecretRefContext,
  problems: PathProblem[],
  warnings: string[],
): WebhookSecretValues {
  const out: WebhookSecretValues = { secrets: {}, generic: undefined, inline: [] };
  if (!isMapping(webhook)) return out;
  const read = (value: unknown, path: string[]) => resolveRef(value, ["webhook", ...path], ctx, problems, out.inline);
  const secrets = isMapping(webhook.secrets) ? webhook.secrets : {};
  for (const [source, alias] of Object.entries(SECRET_KEY_ALIASES) as Array<[SecretSourceId, string]>) {
    const neutral = read(secrets[source], ["secrets", source]);
    const vendor = read(secrets[alias], ["secrets", alias]);
    if (neutral !== undefined && vendor !== undefined && neutral !== vendor) {
      problems.push({
        path: ["webhook", "secrets", alias],
        message: `and webhook.secrets.${source} name the same source with different secrets`,
        fix: "keep only one of the two keys",
      });
    }
    const value = neutral ?? vendor;
    if (value !== undefined) out.secrets[source] = value;
  }
  const legacy = isMapping(webhook.shortcut) ? webhook.shortcut.secret : undefined;
  if (legacy !== undefined) {
    warnings.push(
      "webhook.shortcut.secret is deprecated: move it to webhook.secrets.tracker_b (or webhook.secrets.shortcut)",
    );
    const value = read(legacy, ["shortcut", "secret"]);
    if (out.secrets.tracker_b !== undefined && value !== undefined && value !== out.secrets.tracker_b) {
      problems.push({
        path: ["webhook", "shortcut", "secret"],
        message: "differs from webhook.secrets.tracker_b",
        fix: "remove the deprecated key",
      });
    } else if (value !== undefined) {
      out.secrets.tracker_b = value;
    }
  }
  if (isMapping(webhook.generic)) {
    out.generic = read(webhook.generic.secret, ["generic", "secret"]);
    if (
      webhook.generic.auth_mode === "standard_webhooks"
      && out.generic !== undefined
      && out.generic !== UNRESOLVED_SECRET
      && !isWhsec(out.generic)
    ) {
      problems.push({
        path: ["webhook", "generic", "secret"],
        message: "is not a Standard Webhooks secret",
        fix: "use the whsec_<base64> value the sender shows (at least 16 bytes once decoded)",
      });
    }
  }
  return out;
}

function resolveRef(
  value: unknown,
  path: string[],
  ctx: SecretRefContext,
  problems: PathProblem[],
  inline: string[],
): string | undefined {
  const parsed = REF.safeParse(value);
  if (value === undefined || !parsed.success) return undefined;
  const ref = parsed.data;
  if (typeof ref === "string") {
    inline.push(path.join("."));
    return ref;
  }
  if (ctx.skip) return UNRESOLVED_SECRET;
  if (ref.secret !== undefined) {
    const found = ctx.store.resolve(ref.secret);
    if (found === undefined && ctx.missing !== undefined) {
      ctx.missing.push({ name: ref.secret, keys: [path.join(".")], lookedIn: ctx.store.describe(ref.secret) });
      return UNRESOLVED_SECRET;
    }
    if (found === undefined) {
      problems.push({
        path,
        message: `names the secret ${JSON.stringify(ref.secret)}, which was not found (looked in: ${ctx.store.describe(ref.secret).join("; ")})`,
        fix: `set ${secretEnvName(ref.secret)}, or write the file ${ref.secret} in the secrets folder (secrets.dir)`,
      });
    }
    return found;
  }
  if (ref.env !== undefined) {
    const found = ctx.env[ref.env];
    if (found === undefined || found === "") {
      problems.push({
        path,
        message: `refers to the environment variable ${ref.env}, which is not set`,
        fix: `export ${ref.env} before starting`,
      });
      return undefined;
    }
    return found;
  }
  return fromFile(ref.file as string, path, ctx, problems);
}

function fromFile(file: string, path: string[], ctx: SecretRefContext, problems: PathProblem[]): string | undefined {
  const full = isAbsolute(file) ? file : resolve(ctx.baseDir, file);
  let text: string;
  try {
    text = readFileSync(full, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    problems.push({
      path,
      message: `refers to the file ${full}, which cannot be read (${code})`,
      fix: "create the file or fix the path (relative paths start at the config file's folder)",
    });
    return undefined;
  }
  const value = text.replace(/\r?\n$/, "");
  if (value === "") {
    problems.push({
      path,
      message: `refers to the file ${full}, which is empty`,
      fix: "write the secret into the file",
    });
    return undefined;
  }
  return value;
}

function isWhsec(secret: string): boolean {
  const body = secret.startsWith("whsec_") ? secret.slice(6) : undefined;
  return body !== undefined && /^[A-Za-z0-9+/]+={0,2}$/.test(body) && Buffer.from(body, "base64").length >= 16;
}
