// The npm configuration that points every install and publish at a test registry.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * The .npmrc lines for a registry: it is the default registry (so the
 * unscoped create-channel and unscoped plugins resolve there), the @errand
 * scope is routed to it explicitly, and publishes carry its token.
 * @param {{ url: string, token: string }} registry
 */
export function npmrcLines(registry) {
  const authority = registry.url.replace(/^https?:/, "");
  return [`registry=${registry.url}`, `@errand:registry=${registry.url}`, `${authority}:_authToken=${registry.token}`];
}

/**
 * Writes an npm user config for the registry (npm reads it through
 * NPM_CONFIG_USERCONFIG instead of ~/.npmrc); `extra` adds lines.
 * @param {string} file @param {{ url: string, token: string }} registry @param {string[]} [extra]
 */
export async function writeNpmrc(file, registry, extra = []) {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${["# Errand's test registry (test/registry); every name it does not hold comes from registry.npmjs.org through it", ...npmrcLines(registry), ...extra].join("\n")}\n`);
}
