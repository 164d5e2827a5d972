import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { checkChannelName } from "@errand/channel-sdk/protocol";
import { execa } from "execa";
import { type PackageJson, pickBin, readPackageJson } from "../conformance/plugin-target.js";
import { npmReason } from "../util/npm-reason.js";
import { lintBuildBeforePack } from "./build-before-pack.js";
import { lintDependencySpecs } from "./dependency-specs.js";
import { lintEntryPoints } from "./entry-points.js";
import type { AddFinding, LintFinding } from "./lint-finding.js";
import { manifestHandshake } from "./manifest-handshake.js";

export type { LintFinding } from "./lint-finding.js";

/** The keyword by which users and the controller find channel plugins on npm. */
export const CHANNEL_KEYWORD = "errand-channel";
const NAME_CONVENTION = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?errand-channel-[a-z0-9][a-z0-9._-]*$/;

/** Checks a plugin package before `npm publish`. */
export async function lintPackage(dirArg: string): Promise<LintFinding[]> {
  const dir = resolve(dirArg);
  const pkg = await readPackageJson(dir, "give the directory of a plugin package (channel lint [dir])");
  const findings: LintFinding[] = [];
  const add: AddFinding = (rule, severity, message, fix) => findings.push({ rule, severity, message, fix });
  for (const problem of pkg.problems)
    add("package.json", "error", `package.json: ${problem}`, "fix the field's type; npm and the controller read it");

  if (!pkg.name) add("name", "error", "package.json has no name", 'set "name", for example "errand-channel-teams"');
  else if (!NAME_CONVENTION.test(pkg.name)) {
    add(
      "name",
      "warning",
      `the name ${pkg.name} does not follow the convention errand-channel-<name> (or @scope/errand-channel-<name>)`,
      "rename it so users find it next to other channels",
    );
  }
  if (!pkg.keywords?.includes(CHANNEL_KEYWORD)) {
    add(
      "keywords",
      "error",
      `"keywords" lacks "${CHANNEL_KEYWORD}"`,
      `add "${CHANNEL_KEYWORD}" to "keywords"; the controller's docs and npm search use it`,
    );
  }
  lintManifest(pkg, add);
  const node = pkg.engines?.node;
  if (!node) add("engines", "error", 'package.json has no "engines.node"', 'add "engines": { "node": ">=20.19" }');
  else if (!/>=?\s*(2[0-9]|[3-9][0-9])/.test(node)) {
    add("engines", "warning", `engines.node "${node}" does not clearly require Node 20 or later`, 'use ">=20.19"');
  }
  if (pkg.devDependencies?.["@errand/channel-sdk"] && !pkg.dependencies?.["@errand/channel-sdk"]) {
    add(
      "dependencies",
      "error",
      "@errand/channel-sdk is only a devDependency; the installed plugin cannot load it",
      'move it to "dependencies"',
    );
  }
  lintDependencySpecs(pkg, add);
  lintBuildBeforePack(pkg, add);

  const bin = pickBin(pkg);
  if (!bin) {
    add(
      "bin",
      "error",
      'no "bin" entry serves the channel',
      'add "bin": { "<package name without scope>": "dist/bin.js" }',
    );
  } else if (existsSync(join(dir, bin)) && !readFileSync(join(dir, bin), "utf8").startsWith("#!")) {
    add(
      "bin",
      "error",
      `the bin ${bin} has no "#!/usr/bin/env node" line`,
      "start the file with #!/usr/bin/env node so npm can link it as an executable",
    );
  }

  const packed = await packedFiles(dir);
  if (typeof packed === "string") {
    add(
      "files",
      "error",
      `npm pack --dry-run failed: ${packed}`,
      "fix what npm names; until npm can pack the package it cannot be published",
    );
  } else {
    if (![...packed].some((f) => /^readme/i.test(f)))
      add("files", "warning", "no README is packed", "add a README.md that explains the config keys");
    const leaked = [...packed].filter((f) => /(^|\/)(\.env|.*\.pem|.*\.key)$/.test(f));
    if (leaked.length > 0)
      add("files", "error", `secret-looking files would be published: ${leaked.join(", ")}`, 'narrow "files"');
  }
  lintEntryPoints(dir, pkg, typeof packed === "string" ? undefined : packed, add);

  const manifestVersions = Array.isArray(pkg.errand?.interfaceVersions)
    ? (pkg.errand.interfaceVersions as number[])
    : undefined;
  if (bin && existsSync(join(dir, bin)) && manifestVersions) {
    const outcome = await manifestHandshake(dir, manifestVersions);
    if (outcome.error) {
      add(
        "handshake",
        "error",
        `could not run the plugin's Handshake: ${outcome.error}`,
        "run channel test to see why the plugin does not start",
      );
    } else {
      const served = [...(outcome.supportedVersions ?? [])].sort().join(",");
      if (served !== [...manifestVersions].sort().join(",")) {
        add(
          "handshake",
          "error",
          `errand.interfaceVersions is [${manifestVersions.join(", ")}] but the plugin's Handshake supports [${served}]`,
          "make package.json errand.interfaceVersions list what defineChannel() declares",
        );
      }
      if (typeof pkg.errand?.channel === "string" && outcome.name !== pkg.errand.channel) {
        add(
          "handshake",
          "error",
          `errand.channel is "${pkg.errand.channel}" but the plugin's Handshake names "${outcome.name}"`,
          "use the same name in package.json errand.channel and defineChannel()",
        );
      }
    }
  }
  return findings;
}

function lintManifest(pkg: PackageJson, add: AddFinding) {
  const manifest = pkg.errand;
  if (!manifest || typeof manifest !== "object") {
    add(
      "manifest",
      "error",
      'package.json has no "errand" manifest field',
      'add "errand": { "channel": "<name>", "interfaceVersions": [1] }; the controller finds the plugin by it',
    );
    return;
  }
  const problem = checkChannelName(manifest.channel);
  if (problem)
    add(
      "manifest",
      "error",
      `errand.channel: ${problem}`,
      "set errand.channel to the name notifications.channels[].backend will use",
    );
  const versions = manifest.interfaceVersions;
  if (!Array.isArray(versions) || versions.length === 0 || !versions.every((v) => Number.isInteger(v) && v > 0)) {
    add(
      "manifest",
      "error",
      "errand.interfaceVersions must be a non-empty list of positive integers",
      'set "interfaceVersions": [1]',
    );
  }
}

/** The files `npm pack` would publish, or npm's reason why it cannot pack. */
async function packedFiles(dir: string): Promise<Set<string> | string> {
  const result = await execa("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: dir, reject: false });
  if (!result.failed) {
    try {
      const parsed = JSON.parse(result.stdout) as { files: { path: string }[] }[];
      return new Set(parsed[0]?.files.map((f) => f.path) ?? []);
    } catch {
      // fall through: npm printed something that is not its JSON
    }
  }
  return npmReason(`${result.stderr}`) ?? result.shortMessage ?? "npm printed no list of files";
}
