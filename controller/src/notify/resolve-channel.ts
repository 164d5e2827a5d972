import { existsSync } from "node:fs";
import { extname, join } from "node:path";
import type { ChannelEntryConfig } from "../config/controller-config.js";
import { BUILTIN_CHANNELS } from "./builtin-channels.js";
import type { ChannelSetupProblem } from "./channel-setup-error.js";
import type { ChannelSource } from "./channel-source.js";
import { describeEntry } from "./describe-entry.js";
import { executableProblem } from "./executable-problem.js";
import type { PluginFinder } from "./find-plugin-package.js";
import type { PluginManifest } from "./plugin-manifest.js";

/** A channel source, or why the entry cannot have one. */
export type Resolution = { source: ChannelSource } | { problem: ChannelSetupProblem };

const JS_EXTENSIONS = new Set([".js", ".mjs", ".cjs"]);

/**
 * Decides how an entry's channel is started: its `command` when given,
 * else the built-in of that name, else the installed package whose
 * package.json `errand.channel` equals the backend (see
 * {@link pluginSearchRoots} for the order). Reads the file system only.
 */
export function resolveChannel(entry: ChannelEntryConfig, finder: PluginFinder): Resolution {
  const problem = (message: string, fix: string): Resolution => ({
    problem: { entry: describeEntry(entry), label: entry.label, message, fix },
  });
  if (entry.command !== undefined) {
    const [command, ...args] = entry.command;
    if (command === undefined || command === "")
      return problem(
        "command is empty",
        "give the plugin executable and its arguments, e.g. command: [/opt/plugins/team-alerts, --verbose]",
      );
    const why = executableProblem(command);
    if (why)
      return problem(
        `the command ${JSON.stringify(command)} ${why}`,
        "install the plugin or fix the path (an absolute path is safest), and make it executable",
      );
    return { source: { kind: "command", command, args } };
  }
  const builtin = BUILTIN_CHANNELS[entry.backend];
  if (builtin) return { source: { kind: "builtin", packageName: builtin.packageName, builtin } };

  const result = finder.find(entry.backend);
  if (result.kind === "ambiguous") {
    const dirs = result.manifests.map((m) => `${m.packageName} (${m.dir})`).join(" and ");
    return problem(
      `more than one installed package serves the channel "${entry.backend}" in ${result.root}: ${dirs}`,
      "uninstall all but one, or run the one you mean with command: [...]",
    );
  }
  if (result.kind === "missing") {
    const builtins = Object.keys(BUILTIN_CHANNELS).join(", ");
    return problem(
      `unknown backend "${entry.backend}": it is not a built-in channel (${builtins}) and no installed package declares "errand": { "channel": "${entry.backend}" }; looked in ${finder.roots.map((r) => (existsSync(r) ? r : `${r} (missing)`)).join(", ")}`,
      `install the plugin package (npm install --prefix <plugins.dir> <package>, or beside the controller), fix the backend name, or give the executable with command: [...]`,
    );
  }
  return fromPackage(result.manifest, problem);
}

function fromPackage(manifest: PluginManifest, problem: (message: string, fix: string) => Resolution): Resolution {
  const where = `${manifest.packageName} (${manifest.dir})`;
  if (manifest.bin === undefined) {
    return problem(
      `the package ${where} declares no "bin" that serves the channel`,
      `the package must list its plugin executable in package.json "bin"; reinstall it or ask its author (npx --package @errand/cli channel lint ${manifest.dir} finds this)`,
    );
  }
  const path = join(manifest.dir, manifest.bin);
  // A JavaScript bin runs through this Node, as npm's shim would; anything else must be executable itself.
  if (JS_EXTENSIONS.has(extname(path))) {
    if (!existsSync(path))
      return problem(
        `the bin ${manifest.bin} of ${where} does not exist`,
        "the package is not built or not fully installed; reinstall it (a package from a source checkout needs npm run build)",
      );
    return packageSource(manifest, process.execPath, [path]);
  }
  const why = executableProblem(path);
  if (why)
    return problem(
      `the bin ${manifest.bin} of ${where} ${why}`,
      "reinstall the package; its bin must be an executable file",
    );
  return packageSource(manifest, path, []);
}

/** The plugin of an installed package, started as `command args`. */
function packageSource(manifest: PluginManifest, command: string, args: string[]): Resolution {
  const { packageName, packageVersion, dir } = manifest;
  return { source: { kind: "package", packageName, packageVersion, dir, command, args } };
}
