import { InvalidConfigError, toChannelError } from "./errors.js";
import type { StandardSchemaV1 } from "./standard-schema.js";

export type { StandardSchemaV1 };

/** The hint of a refused config unless the caller gives its own. */
export const CONFIG_HINT =
  "fix each listed key in the channel's config block (notifications.channels[].config); the channel's README describes its keys";

/** Options of {@link validateConfig}. */
export interface ValidateConfigOptions {
  /** Prefixes the error message, usually the channel name (`chat_a: ...`). */
  label?: string;
  /** The error's hint; default `CONFIG_HINT`. */
  hint?: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Writes an issue's path as the user would find the value in their config:
 * `config`, `config.channel_id`, `config.headers["X-Api-Key"]`, `config.ids[0]`.
 */
export function formatConfigPath(path: StandardSchemaV1.Issue["path"]): string {
  let text = "config";
  for (const segment of path ?? []) {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment;
    if (typeof key === "number") text += `[${key}]`;
    else if (typeof key === "string" && IDENTIFIER.test(key)) text += `.${key}`;
    else text += `[${typeof key === "string" ? JSON.stringify(key) : String(key)}]`;
  }
  return text;
}

/** Every issue as `path: message`, in the schema's order. */
export function formatConfigIssues(issues: ReadonlyArray<StandardSchemaV1.Issue>): string[] {
  return issues.map((issue) => `${formatConfigPath(issue.path)}: ${issue.message}`);
}

/**
 * Validates a channel's config with a Standard Schema (zod 4, valibot,
 * arktype, ...) and returns the schema's output, which may be transformed.
 * On failure throws one {@link InvalidConfigError} that lists every issue
 * with its path (`config.channel_id: expected string`) and carries a hint.
 * A schema that throws is reported the same way, with the thrown error as cause.
 *
 * @example
 * const config = await validateConfig(z.strictObject({ channel_id: z.string() }), raw, { label: "chat_x" });
 */
export async function validateConfig<Schema extends StandardSchemaV1>(
  schema: Schema,
  config: unknown,
  options: ValidateConfigOptions = {},
): Promise<StandardSchemaV1.InferOutput<Schema>> {
  const prefix = options.label ? `${options.label}: ` : "";
  const hint = options.hint ?? CONFIG_HINT;
  let result: StandardSchemaV1.Result<unknown>;
  try {
    result = await schema["~standard"].validate(config);
  } catch (error) {
    throw new InvalidConfigError(`${prefix}the config schema failed: ${toChannelError(error).message}`, {
      hint,
      cause: error,
    });
  }
  if (result.issues === undefined) return result.value as StandardSchemaV1.InferOutput<Schema>;
  const problems = formatConfigIssues(result.issues);
  // A schema that fails without saying why still must not pass.
  if (problems.length === 0) problems.push("config: refused by the config schema without a reason");
  const count = problems.length === 1 ? "" : ` (${problems.length} problems)`;
  throw new InvalidConfigError(`${prefix}invalid config${count}: ${problems.join("; ")}`, { hint });
}

/** True when `value` looks like a Standard Schema v1 (has `~standard.validate`, version 1). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const props = (value as { "~standard"?: { version?: unknown; validate?: unknown } } | null)?.["~standard"];
  return (
    (typeof value === "object" || typeof value === "function")
    && props?.version === 1
    && typeof props.validate === "function"
  );
}
