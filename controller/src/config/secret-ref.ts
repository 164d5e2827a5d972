import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { ConfigProblem } from "./config-error.js";

/** Where secret references are resolved: the environment and the config file's folder. */
export interface SecretContext {
  env: NodeJS.ProcessEnv;
  baseDir: string;
}

/**
 * Resolves a secret given as a plain string, `{ env: NAME }` or `{ file: path }`.
 * Returns undefined when the key is absent; pushes a problem and returns
 * undefined when the reference cannot be resolved. File contents lose one
 * trailing newline, as written by `echo` or an editor.
 */
export function resolveSecret(
  raw: unknown,
  key: string,
  ctx: SecretContext,
  problems: ConfigProblem[],
): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === "string") {
    if (raw.length === 0) {
      problems.push({ key, message: "is empty", fix: "give the secret, or remove the key to leave the source off" });
      return undefined;
    }
    return raw;
  }
  if (typeof raw === "object" && !Array.isArray(raw)) {
    const ref = raw as Record<string, unknown>;
    const keys = Object.keys(ref);
    if (keys.length === 1 && typeof ref.env === "string") return fromEnv(ref.env, key, ctx, problems);
    if (keys.length === 1 && typeof ref.file === "string") return fromFile(ref.file, key, ctx, problems);
  }
  // YAML reads an unquoted 12345678 or true as a number or a boolean, not as the text the sender was given.
  const scalar = typeof raw === "number" || typeof raw === "boolean";
  problems.push({
    key,
    message: scalar ? `is the ${typeof raw} ${String(raw)}, not a string` : "must be a string, { env: NAME } or { file: PATH }",
    fix: scalar
      ? `quote it in the YAML file ("${String(raw)}"), or point to an environment variable or a file that holds it`
      : "write the secret inline, or point to an environment variable or a file that holds it",
  });
  return undefined;
}

function fromEnv(name: string, key: string, ctx: SecretContext, problems: ConfigProblem[]): string | undefined {
  const value = ctx.env[name];
  if (value === undefined || value === "") {
    problems.push({ key, message: `refers to the environment variable ${name}, which is not set`, fix: `export ${name} before starting` });
    return undefined;
  }
  return value;
}

function fromFile(path: string, key: string, ctx: SecretContext, problems: ConfigProblem[]): string | undefined {
  const full = isAbsolute(path) ? path : resolve(ctx.baseDir, path);
  let text: string;
  try {
    text = readFileSync(full, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    problems.push({ key, message: `refers to the file ${full}, which cannot be read (${code})`, fix: "create the file or fix the path (relative paths start at the config file's folder)" });
    return undefined;
  }
  const value = text.replace(/\r?\n$/, "");
  if (value === "") {
    problems.push({ key, message: `refers to the file ${full}, which is empty`, fix: "write the secret into the file" });
    return undefined;
  }
  return value;
}
