import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { Script } from "node:vm";

/**
 * How `ERRAND_CODE_CACHE` asks the launcher to treat the bundle's code cache:
 * `use` (unset: read it when it fits), `off` (compile from source),
 * `write` (read it, and write a new one when the process exits; the build
 * does this), `report` (use, and say on stderr whether V8 took it).
 */
export type CodeCacheMode = "use" | "off" | "write" | "report";

/** What became of the cache at start: V8 took it, refused it (another node or other V8 flags), or none was read. */
export type CodeCacheState = "accepted" | "rejected" | "missing" | "off";

/** The marker the bundle ends with; the cache file is named after the id so that a rebuilt bundle never meets an old cache. */
export const BUNDLE_ID_MARKER = "//# errand-bundle-id=";

/** The cache file that belongs to `bundleFile` with this id. */
export const codeCacheFile = (bundleFile: string, id: string): string => `${bundleFile}.${id}.cache`;

/** Reads `ERRAND_CODE_CACHE`; anything else than the four words is an error that names them. */
export function codeCacheMode(value: string | undefined): CodeCacheMode {
  if (value === undefined || value === "") return "use";
  if (value === "use" || value === "off" || value === "write" || value === "report") return value;
  throw new Error(`ERRAND_CODE_CACHE is "${value}"; use one of use, off, write, report (or leave it unset)`);
}

/**
 * Runs the CommonJS bundle `bundleFile` as Node would run a CommonJS module,
 * but compiled through V8's code cache: the functions an earlier start
 * compiled (the build starts `errand run` once to record them) are
 * deserialized instead of parsed and compiled again. Node 22 does this for
 * every module (`module.enableCompileCache`); Node 20 has no such cache.
 *
 * V8 itself refuses a cache made by another V8 version or under other V8
 * flags, but it checks only the source's length; so the cache is found
 * through the id the bundle ends with ({@link BUNDLE_ID_MARKER}), which
 * every build changes. Returns what became of the cache.
 */
export function runBundle(bundleFile: string, mode: CodeCacheMode): CodeCacheState {
  const source = readFileSync(bundleFile, "utf8");
  const marker = source.lastIndexOf(BUNDLE_ID_MARKER);
  const id = marker === -1 ? undefined : /^[0-9a-f]+/.exec(source.slice(marker + BUNDLE_ID_MARKER.length))?.[0];
  const cacheFile = id === undefined ? undefined : codeCacheFile(bundleFile, id);
  let cachedData: Buffer | undefined;
  if (mode !== "off" && cacheFile !== undefined) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // No cache (never written, or removed): compile from source, as node would.
    }
  }
  // The wrapper Node's CommonJS loader uses, plus import.meta.url, which the bundle reads as __importMetaUrl.
  const wrapper = `(function (exports, require, module, __filename, __dirname, __importMetaUrl) {${source}\n})`;
  const script = new Script(wrapper, { filename: bundleFile, ...(cachedData === undefined ? {} : { cachedData }) });
  const state: CodeCacheState =
    mode === "off" ? "off" : cachedData === undefined ? "missing" : script.cachedDataRejected ? "rejected" : "accepted";
  if (mode === "report")
    process.stderr.write(
      `${JSON.stringify({ "@level": "debug", "@message": "code cache", "@module": "errand", state, bundle: bundleFile })}\n`,
    );
  if (mode === "write" && cacheFile !== undefined) {
    // At exit, so the cache holds every function this run compiled, not just the top level.
    process.once("exit", () => {
      try {
        writeFileSync(cacheFile, script.createCachedData());
      } catch (error) {
        // errand works without it: say why, keep the exit code the command chose.
        process.stderr.write(
          `${JSON.stringify({ "@level": "warn", "@message": "could not write the code cache", "@module": "errand", file: cacheFile, error: (error as Error).message })}\n`,
        );
      }
    });
  }
  const module = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(
    module.exports,
    module.exports,
    createRequire(bundleFile),
    module,
    bundleFile,
    dirname(bundleFile),
    pathToFileURL(bundleFile).href,
  );
  return state;
}
