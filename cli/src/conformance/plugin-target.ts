import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, isAbsolute, join, resolve } from "node:path";

/** What to run as the plugin, and what its package declares. */
export interface PluginTarget {
  command: string;
  args: string[];
  cwd: string;
  /** The package's `errand.channel`, when run from a package directory. */
  manifestChannel?: string;
  /** The package's `errand.interfaceVersions`, when declared. */
  manifestVersions?: number[];
}

/** The run cannot start: no package, no bin, ... */
export class TargetError extends Error {
  override readonly name = "TargetError";
}

/** The subset of package.json this tool reads. */
export interface PackageJson {
  name?: string;
  version?: string;
  bin?: string | Record<string, string>;
  files?: string[];
  engines?: Record<string, string>;
  keywords?: string[];
  errand?: { channel?: unknown; interfaceVersions?: unknown; template?: unknown };
  [key: string]: unknown;
}

/** Reads `dir/package.json`. */
export async function readPackageJson(dir: string): Promise<PackageJson> {
  const file = join(dir, "package.json");
  if (!existsSync(file)) throw new TargetError(`${dir} has no package.json; give a plugin package directory or "-- <command>"`);
  try {
    return JSON.parse(await readFile(file, "utf8")) as PackageJson;
  } catch (error) {
    throw new TargetError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/** The bin entry that serves the channel: the only one, or the one named after the package or channel. */
export function pickBin(pkg: PackageJson): string | undefined {
  if (typeof pkg.bin === "string") return pkg.bin;
  const entries = Object.entries(pkg.bin ?? {});
  if (entries.length === 1) return entries[0]?.[1];
  const unscoped = pkg.name?.replace(/^@[^/]+\//, "");
  const channel = typeof pkg.errand?.channel === "string" ? pkg.errand.channel : undefined;
  return entries.find(([name]) => name === unscoped || name === channel)?.[1];
}

/** Resolves a package directory to the command the controller would run. */
export async function targetFromPackage(dirArg: string): Promise<PluginTarget> {
  const dir = resolve(dirArg);
  const pkg = await readPackageJson(dir);
  const bin = pickBin(pkg);
  if (!bin) {
    throw new TargetError(`${join(dir, "package.json")} declares no "bin" that serves the channel; add "bin": { "<name>": "dist/bin.js" }`);
  }
  const file = join(dir, bin);
  if (!existsSync(file)) {
    throw new TargetError(`the bin ${bin} of ${pkg.name ?? dir} does not exist (${file}); run "npm run build" first`);
  }
  const js = [".js", ".mjs", ".cjs"].includes(extname(file));
  const versions = pkg.errand?.interfaceVersions;
  return {
    command: js ? process.execPath : file,
    args: js ? [file] : [],
    cwd: dir,
    manifestChannel: typeof pkg.errand?.channel === "string" ? pkg.errand.channel : undefined,
    manifestVersions: Array.isArray(versions) ? versions.filter((v): v is number => Number.isInteger(v)) : undefined,
  };
}

/** A target given as `-- <command> [args]`. */
export function targetFromCommand(command: string[], cwd = process.cwd()): PluginTarget {
  const [first, ...args] = command;
  if (!first) throw new TargetError('"--" must be followed by the plugin command');
  const path = first.includes("/") && !isAbsolute(first) ? resolve(cwd, first) : first;
  return { command: path, args, cwd };
}
