import { type Dirent, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type PluginManifest, readPluginManifest } from "./plugin-manifest.js";

/** Where installed plugin packages are looked for. */
export interface PluginSearchOptions {
  /** `plugins.dir`: searched first. */
  pluginsDir?: string | undefined;
  /** The controller's package folder; default the installed controller's own. */
  controllerDir?: string;
}

/** What a search found for one channel name. */
export type PluginSearchResult =
  | { kind: "found"; manifest: PluginManifest }
  /** Two packages in the same folder serve the name: neither is picked. */
  | { kind: "ambiguous"; root: string; manifests: PluginManifest[] }
  | { kind: "missing" };

/** Finds installed plugin packages by the `errand.channel` name in their package.json. */
export interface PluginFinder {
  /** The folders searched, in order. */
  readonly roots: readonly string[];
  find(channel: string): PluginSearchResult;
}

const CONTROLLER_DIR = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The search order: (1) `plugins.dir/node_modules` (a plugin installed there
 * with `npm install --prefix <plugins.dir>`), (2) the direct subfolders of
 * `plugins.dir` (an unpacked package), (3) every `node_modules` folder from
 * the controller's package folder up to the file system root, as Node
 * resolves the controller's own dependencies. The first folder holding a
 * match wins, so `plugins.dir` overrides what ships beside the controller.
 */
export function pluginSearchRoots(options: PluginSearchOptions = {}): string[] {
  const roots: string[] = [];
  if (options.pluginsDir !== undefined) roots.push(join(options.pluginsDir, "node_modules"), options.pluginsDir);
  for (let dir = resolve(options.controllerDir ?? CONTROLLER_DIR); ; dir = dirname(dir)) {
    if (!dir.endsWith("node_modules")) roots.push(join(dir, "node_modules"));
    if (dirname(dir) === dir) break;
  }
  return roots;
}

function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // a folder that does not exist holds no plugins
  }
}

// Package folders of one root: `name` and `@scope/name`; a symlink counts (npm links workspaces).
function packageDirs(root: string): string[] {
  const dirs: string[] = [];
  for (const entry of entries(root)) {
    if (entry.name.startsWith(".") || entry.name === "node_modules" || !(entry.isDirectory() || entry.isSymbolicLink()))
      continue;
    const path = join(root, entry.name);
    if (!entry.name.startsWith("@")) dirs.push(path);
    else
      for (const scoped of entries(path))
        if (scoped.isDirectory() || scoped.isSymbolicLink()) dirs.push(join(path, scoped.name));
  }
  return dirs;
}

function indexRoot(root: string): Map<string, PluginManifest[]> {
  const index = new Map<string, PluginManifest[]>();
  for (const dir of packageDirs(root)) {
    const manifest = readPluginManifest(dir);
    if (!manifest) continue;
    const list = index.get(manifest.channel) ?? [];
    // The same package reached twice (a symlink beside its target) is one package.
    if (!list.some((m) => m.dir === manifest.dir)) list.push(manifest);
    index.set(manifest.channel, list);
  }
  return index;
}

/** Creates a finder over {@link pluginSearchRoots}; each folder is read once, on first need. */
export function createPluginFinder(options: PluginSearchOptions = {}): PluginFinder {
  const roots = pluginSearchRoots(options);
  const indexes = new Map<string, Map<string, PluginManifest[]>>();
  return {
    roots,
    find(channel) {
      for (const root of roots) {
        let index = indexes.get(root);
        if (!index) indexes.set(root, (index = indexRoot(root)));
        const matches = index.get(channel) ?? [];
        if (matches.length === 1) return { kind: "found", manifest: matches[0]! };
        if (matches.length > 1) return { kind: "ambiguous", root, manifests: matches };
      }
      return { kind: "missing" };
    },
  };
}
