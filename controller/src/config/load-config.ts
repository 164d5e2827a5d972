import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parseDocument } from "yaml";
import { ConfigError } from "./config-error.js";
import { type ParsedWebhookConfig, parseWebhookConfig } from "./parse-webhook-config.js";

/** Options of {@link loadWebhookConfig}. */
export interface LoadConfigOptions {
  /** Environment for `{ env: NAME }` secrets; default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Reads a YAML configuration file and validates its `webhook` section.
 * Throws {@link ConfigError} naming the file, each bad key and its fix.
 */
export async function loadWebhookConfig(file: string, options: LoadConfigOptions = {}): Promise<ParsedWebhookConfig> {
  const path = resolve(file);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new ConfigError([{ key: "(file)", message: `cannot be read (${code})`, fix: "check the path given to --config" }], path, { cause: error });
  }
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const problems = doc.errors.map((e) => ({
      key: `(line ${e.linePos?.[0]?.line ?? "?"})`,
      message: e.message.split("\n")[0] ?? e.message,
      fix: "fix the YAML syntax",
    }));
    throw new ConfigError(problems, path);
  }
  return parseWebhookConfig(doc.toJS(), { env: options.env ?? process.env, baseDir: dirname(path) }, path);
}
