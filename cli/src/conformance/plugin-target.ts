import { existsSync } from "node:fs";
import { extname, isAbsolute, join, resolve } from "node:path";
import { commandProblem } from "../util/command-problem.js";
import { type PackageJson, readPackageJson, TargetError } from "./package-json.js";

export { type PackageJson, readPackageJson, TargetError } from "./package-json.js";

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

/** The bin entry that serves the channel: the only one, or the one named after the package or channel. */
export function pickBin(pkg: PackageJson): string | undefined {
  if (typeof pkg.bin === "string") return pkg.bin;
  const entries = Object.entries(pkg.bin ?? {});
  if (entries.length === 1) return entries[0]?.[1];
  const unscoped = pkg.name?.replace(/^@[^/]+\//, "");
  const channel = typeof pkg.errand?.channel === "string" ? pkg.errand.channel : undefined;
  return entries.find(([name]) => name === unscoped || name === channel)?.[1];
}

/** What `channel test` accepts instead of a package directory. */
export const TEST_USAGE = 'give a plugin package directory, or the plugin command after "--"';

/** Resolves a package directory to the command the controller would run. */
export async function targetFromPackage(dirArg: string, usage = TEST_USAGE): Promise<PluginTarget> {
  const dir = resolve(dirArg);
  const pkg = await readPackageJson(dir, usage);
  const file = join(dir, "package.json");
  const bin = pickBin(pkg);
  if (!bin) {
    const badBin = pkg.problems.find((p) => p.startsWith('"bin"'));
    throw new TargetError(
      `${file} declares no "bin" that serves the channel${badBin ? ` (${badBin})` : ""}; add "bin": { "<name>": "dist/bin.js" }`,
    );
  }
  const path = join(dir, bin);
  if (!existsSync(path)) {
    throw new TargetError(`the bin ${bin} of ${pkg.name ?? dir} does not exist (${path}); run "npm run build" first`);
  }
  const js = [".js", ".mjs", ".cjs"].includes(extname(path));
  // A JavaScript bin runs through node, as npm's shim would; anything else must be executable itself.
  const problem = js ? undefined : commandProblem(path);
  if (problem) throw new TargetError(`the bin ${bin} of ${pkg.name ?? dir} ${problem}`);
  const versions = pkg.errand?.interfaceVersions;
  return {
    command: js ? process.execPath : path,
    args: js ? [path] : [],
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
