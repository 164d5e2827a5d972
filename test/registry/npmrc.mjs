// The npm configuration that points every install and publish at a test registry.
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** The first line of every npm config written here: a file that starts with it is no user's own. */
const HEADER =
  "# Errand's test registry (test/registry); every name it does not hold comes from registry.npmjs.org through it";

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

/** @param {string} line */
const keyOf = (line) => line.split("=", 1)[0]?.trim() ?? "";
/** @param {string} text @param {string} key */
const settingOf = (text, key) =>
  text
    .split(/\r?\n/)
    .filter((line) => keyOf(line) === key)
    .map((line) => line.slice(line.indexOf("=") + 1).trim())
    .at(-1);

/**
 * The lines of a user's npm config to keep beside the registry's own: all of
 * them (nodedir, proxies, cache, other scopes and their tokens, comments)
 * but the default registry, the @errand scope's registry and any setting of
 * the registry's own address, which the registry's lines replace; and their
 * `noproxy` with the registry's host added (see {@link proxyExemption}).
 * @param {string} text @param {{ url: string }} registry @param {NodeJS.ProcessEnv} [env]
 */
export function keptUserLines(text, registry, env = process.env) {
  const authority = registry.url.replace(/^https?:/, "");
  const kept = text
    .trimEnd()
    .split(/\r?\n/)
    .filter((line) => {
      const key = keyOf(line);
      return key !== "registry" && key !== "@errand:registry" && key !== "noproxy" && !key.startsWith(authority);
    });
  return [...kept, ...proxyExemption(text, registry, env)];
}

/**
 * `noproxy=…` with the registry's host added to the user's own exemptions,
 * when npm would otherwise send its requests for 127.0.0.1 to a proxy (a
 * proxy in the user's config or the environment); nothing without a proxy.
 * @param {string} text the user's npm config @param {{ url: string }} registry @param {NodeJS.ProcessEnv} env
 */
export function proxyExemption(text, registry, env) {
  const proxied =
    settingOf(text, "proxy")
    || settingOf(text, "https-proxy")
    || env.HTTPS_PROXY
    || env.https_proxy
    || env.HTTP_PROXY
    || env.http_proxy;
  if (!proxied) return [];
  const own = settingOf(text, "noproxy") ?? env.NO_PROXY ?? env.no_proxy ?? "";
  const hosts = own
    .split(",")
    .map((host) => host.trim())
    .filter((host) => host !== "");
  const host = new URL(registry.url).hostname;
  return [`noproxy=${[...hosts, ...(hosts.includes(host) ? [] : [host])].join(",")}`];
}

/**
 * The user's npm config file, the one npm reads when NPM_CONFIG_USERCONFIG
 * is not ours: `npm run` passes it on as npm_config_userconfig. A config
 * this module wrote (an earlier registry:local's) is skipped for ~/.npmrc.
 * @returns {Promise<{ file: string, text: string } | undefined>}
 */
export async function userNpmrc() {
  const candidates = [process.env.npm_config_userconfig, process.env.NPM_CONFIG_USERCONFIG, join(homedir(), ".npmrc")];
  for (const file of candidates) {
    if (!file || !existsSync(file)) continue;
    const text = await readFile(file, "utf8");
    if (!text.startsWith(HEADER)) return { file, text };
  }
  return undefined;
}

/**
 * Writes an npm user config for the registry (npm reads it through
 * NPM_CONFIG_USERCONFIG instead of ~/.npmrc); `extra` adds lines. Readable
 * by its owner only: `extra` may carry the user's tokens for other registries.
 * @param {string} file @param {{ url: string, token: string }} registry @param {string[]} [extra]
 */
export async function writeNpmrc(file, registry, extra = []) {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${[HEADER, ...npmrcLines(registry), ...extra].join("\n")}\n`, { mode: 0o600 });
}
