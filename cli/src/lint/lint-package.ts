import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { checkChannelName } from "@errand/channel-sdk/protocol";
import { execa } from "execa";
import { type PackageJson, pickBin, readPackageJson } from "../conformance/plugin-target.js";
import { npmReason } from "../util/npm-reason.js";
import { lintBuildBeforePack } from "./build-before-pack.js";
import { lintDependencySpecs } from "./dependency-specs.js";
import { lintEntryPoints } from "./entry-points.js";
import { lintHandshakeMatch } from "./handshake-match.js";
import type { AddFinding, LintFinding } from "./lint-finding.js";
import { lintDiscoveryFields, lintRuntimeFields } from "./package-fields.js";

export type { LintFinding } from "./lint-finding.js";

export { CHANNEL_KEYWORD } from "./package-fields.js";

/** Checks a plugin package before `npm publish`. */
export async function lintPackage(dirArg: string): Promise<LintFinding[]> {
  const dir = resolve(dirArg);
  const pkg = await readPackageJson(dir, "give the directory of a plugin package (channel lint [dir])");
  const findings: LintFinding[] = [];
  const add: AddFinding = (rule, severity, message, fix) => findings.push({ rule, severity, message, fix });
  for (const problem of pkg.problems)
    add("package.json", "error", `package.json: ${problem}`, "fix the field's type; npm and the controller read it");

  lintDiscoveryFields(pkg, add);
  lintManifest(pkg, add);
  lintRuntimeFields(pkg, add);
  lintDependencySpecs(pkg, add);
  lintBuildBeforePack(pkg, add);

  const bin = lintBin(dir, pkg, add);
  const packed = await packedFiles(dir);
  lintPackedFiles(packed, add);
  lintEntryPoints(dir, pkg, typeof packed === "string" ? undefined : packed, add);

  if (bin && existsSync(join(dir, bin))) await lintHandshakeMatch(dir, pkg, add);
  return findings;
}

/** The executable npm links: there must be one, and it must start with a `#!` line. Returns its path, if any. */
function lintBin(dir: string, pkg: PackageJson, add: AddFinding): string | undefined {
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
  return bin;
}

/** What `npm pack` would publish: it must be able to pack, should include a README and must not leak secret files. */
function lintPackedFiles(packed: Set<string> | string, add: AddFinding): void {
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
