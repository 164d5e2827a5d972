// Errand's packages, read from the one place that lists them: the root
// package.json's `workspaces` (a glob such as `channels/*` takes in a new
// folder by itself) and each package's own manifest (`private`: never
// published; `errand.channel`: a channel). The publish script, the
// architecture test, the changesets and Dockerfile checks and the README
// check all read this, so adding a package is adding its folder.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository this file belongs to. */
export const REPO = fileURLToPath(new URL("../..", import.meta.url));

/**
 * @typedef {{ name: string, version: string, private?: boolean, errand?: { channel?: string },
 *   dependencies?: Record<string, string>, workspaces?: string[] }} Manifest
 */

/**
 * The package.json of `dir` (relative to the repository; `.` is the root).
 * @param {string} dir
 * @returns {Manifest}
 */
export function manifest(dir) {
  return JSON.parse(readFileSync(join(REPO, dir, "package.json"), "utf8"));
}

/**
 * Every workspace folder, as npm expands the root's patterns: a `parent/*`
 * pattern stands for each folder under `parent` that has a package.json
 * (so `channels/bench`, which has none, is not one). In the root's order.
 * @returns {string[]}
 */
export function workspaceDirs() {
  return (manifest(".").workspaces ?? []).flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(join(REPO, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(REPO, parent, entry.name, "package.json")))
      .map((entry) => `${parent}/${entry.name}`)
      .sort();
  });
}

/** The workspaces Errand publishes: those not marked `private`. @returns {string[]} */
export function publishedDirs() {
  return workspaceDirs().filter((dir) => !manifest(dir).private);
}

/** The workspaces that are never published (`"private": true`), e.g. the examples. @returns {string[]} */
export function privateDirs() {
  return workspaceDirs().filter((dir) => manifest(dir).private === true);
}

/** The workspaces written in TypeScript: those with a `src/` folder. @returns {string[]} */
export function typeScriptDirs() {
  return workspaceDirs().filter((dir) => existsSync(join(REPO, dir, "src")));
}

/** The workspaces that are a notification channel (their manifest names it in `errand.channel`). @returns {string[]} */
export function channelDirs() {
  return workspaceDirs().filter((dir) => manifest(dir).errand?.channel !== undefined);
}

/**
 * `dir` and every workspace it needs at run time: its `dependencies` that
 * are workspaces, and theirs, in turn (not devDependencies). For the
 * controller: the SDK, the built-in channels and their kit.
 * @param {string} dir
 * @returns {string[]}
 */
export function runtimeClosure(dir) {
  const byName = new Map(workspaceDirs().map((d) => [manifest(d).name, d]));
  const found = [dir];
  for (let i = 0; i < found.length; i++) {
    for (const name of Object.keys(manifest(/** @type {string} */ (found[i])).dependencies ?? {})) {
      const next = byName.get(name);
      if (next !== undefined && !found.includes(next)) found.push(next);
    }
  }
  return found;
}
