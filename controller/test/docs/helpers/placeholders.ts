import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { parse } from "yaml";
import { secretEnvName } from "../../../src/secrets/secret-env-name.js";

/** A value no check mistakes for a pasted credential, long enough for every secret a doc names. */
const PLACEHOLDER = "placeholder-value-for-the-docs-test";

/**
 * What a configuration from the docs needs around it to pass
 * `errand config check`, as a reader would have it: every secret it names,
 * in the environment (`*_secret` keys and `{ secret: NAME }`), every
 * `{ env: NAME }` variable, and the prompt template files it points at.
 * Returns the environment to run the check with.
 */
export function placeholdersFor(text: string, dir: string): Record<string, string> {
  const env: Record<string, string> = {};
  const visit = (node: unknown, key: string | undefined): void => {
    if (Array.isArray(node)) return node.forEach((item) => visit(item, undefined));
    if (node === null || typeof node !== "object") {
      if (typeof node !== "string" || key === undefined) return;
      if (key.endsWith("_secret") || key === "secret") env[secretEnvName(node)] = PLACEHOLDER;
      else if (key === "env") env[node] = PLACEHOLDER;
      else if (key === "template_file" || key === "file")
        writeRelative(dir, node, key === "file" ? PLACEHOLDER : "Fix {{title}} in {{repo_url}}.\n");
      return;
    }
    for (const [k, v] of Object.entries(node)) visit(v, k);
  };
  visit(parse(text), undefined);
  return env;
}

function writeRelative(dir: string, path: string, content: string): void {
  // An absolute path in a doc is the reader's own; a relative one starts at the config file's folder.
  if (isAbsolute(path)) return;
  const full = join(dir, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content);
}
