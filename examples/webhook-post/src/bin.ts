#!/usr/bin/env node
// The plugin's executable: the Errand controller starts it and talks to it
// over gRPC. Run by hand it prints help and exits (it needs the host's cookie).
//
// The controller waits for every plugin to start, so start-up time matters.
// `npm run build` bundles src/plugin.ts and everything it imports into one
// CommonJS file, dist/plugin.cjs, and records V8's code cache for it
// (scripts/bundle.mjs): the functions a start compiles are then read back
// instead of parsed and compiled from a hundred modules. Node 20 has no
// module compile cache; a script run through node:vm takes one. Without the
// bundle (a build by tsc alone) the plugin runs from its modules, slower.
// ERRAND_PLUGIN_CODE_CACHE=off compiles the bundle from source; =report says
// on stderr whether V8 took the cache; =write (the build) records a new one.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Script } from "node:vm";

/** The bundle ends with this marker and its build's id; the cache file is named after the id, so a rebuilt bundle never meets an old cache. */
const ID_MARKER = "//# errand-bundle-id=";

function runBundle(file: string, mode: string): void {
  const source = readFileSync(file, "utf8");
  const marker = source.lastIndexOf(ID_MARKER);
  const id = marker === -1 ? undefined : /^[0-9a-f]+/.exec(source.slice(marker + ID_MARKER.length))?.[0];
  const cacheFile = `${file}.${id ?? "none"}.cache`;
  let cachedData: Buffer | undefined;
  try {
    if (mode !== "off" && id !== undefined) cachedData = readFileSync(cacheFile);
  } catch {
    // No cache (never recorded, or removed): compile from source, as node would.
  }
  // Node's CommonJS wrapper, plus import.meta.url, which the bundle reads as __importMetaUrl.
  const wrapper = `(function (exports, require, module, __filename, __dirname, __importMetaUrl) {${source}\n})`;
  const script = new Script(wrapper, { filename: file, ...(cachedData ? { cachedData } : {}) });
  if (mode === "report") {
    const state = cachedData === undefined ? "missing" : script.cachedDataRejected ? "rejected" : "accepted";
    process.stderr.write(`${JSON.stringify({ "@level": "debug", "@message": "code cache", state, bundle: file })}\n`);
  }
  if (mode === "write") {
    // At exit, so the cache holds every function the run compiled, not only the top level.
    process.once("exit", () => {
      try {
        writeFileSync(cacheFile, script.createCachedData());
      } catch (error) {
        process.stderr.write(
          `could not write the code cache ${cacheFile}: ${(error as Error).message}; the plugin works without it\n`,
        );
      }
    });
  }
  const module = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file), pathToFileURL(file).href);
}

const mode = process.env.ERRAND_PLUGIN_CODE_CACHE || "use";
if (!["use", "off", "write", "report"].includes(mode)) {
  process.stderr.write(
    `ERRAND_PLUGIN_CODE_CACHE is "${mode}"; use one of use, off, write, report (or leave it unset)\n`,
  );
  process.exit(1);
}
const bundle = fileURLToPath(new URL("./plugin.cjs", import.meta.url));
if (existsSync(bundle)) runBundle(bundle, mode);
else await import("./plugin.js");
