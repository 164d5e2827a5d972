import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";

/** An installed package whose package.json names a channel: `"errand": { "channel": "<name>" }`. */
export interface PluginManifest {
  /** The package folder, symlinks resolved (npm links workspaces and `npm link`ed packages). */
  dir: string;
  /** package.json `name`, or the folder when it has none. */
  packageName: string;
  packageVersion: string | undefined;
  /** `errand.channel`: the backend name it serves. */
  channel: string;
  /** `errand.interfaceVersions`, as declared (the Handshake is what counts). */
  interfaceVersions: number[] | undefined;
  /** The `bin` entry that serves the channel, relative to `dir`; undefined when none can be picked. */
  bin: string | undefined;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The `bin` that serves the channel: the only one, or the one named after the
 * package (without its scope) or the channel; `channel lint` and
 * `channel test` pick it the same way.
 */
function pickBin(pkg: Json, channel: string): string | undefined {
  if (typeof pkg.bin === "string") return pkg.bin;
  if (!isObject(pkg.bin)) return undefined;
  const entries = Object.entries(pkg.bin).filter((e): e is [string, string] => typeof e[1] === "string");
  if (entries.length === 1) return entries[0]![1];
  const unscoped = typeof pkg.name === "string" ? pkg.name.replace(/^@[^/]+\//, "") : undefined;
  return entries.find(([name]) => name === unscoped || name === channel)?.[1];
}

/**
 * Reads `dir/package.json` and returns its channel manifest, or undefined
 * when the folder holds no readable package.json or the package is not a
 * channel plugin (most of node_modules).
 */
export function readPluginManifest(dir: string): PluginManifest | undefined {
  let pkg: unknown;
  try {
    pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  } catch {
    return undefined;
  }
  if (!isObject(pkg) || !isObject(pkg.errand) || typeof pkg.errand.channel !== "string") return undefined;
  const channel = pkg.errand.channel;
  const versions = pkg.errand.interfaceVersions;
  return {
    dir: realpathSync(dir),
    packageName: typeof pkg.name === "string" ? pkg.name : dir,
    packageVersion: typeof pkg.version === "string" ? pkg.version : undefined,
    channel,
    interfaceVersions: Array.isArray(versions) ? versions.filter((v): v is number => Number.isInteger(v)) : undefined,
    bin: pickBin(pkg, channel),
  };
}
