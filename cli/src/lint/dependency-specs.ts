import type { PackageJson } from "../conformance/package-json.js";
import type { AddFinding } from "./lint-finding.js";

// Specs that name something on the author's machine or in their monorepo; npm cannot fetch them for anyone else.
const LOCAL_SPECS: Array<[RegExp, string]> = [
  [/^file:/, "a file: path, which exists only on the machine that wrote it"],
  [/^link:/, "a link: path (yarn and pnpm), which npm cannot install and exists only on the machine that wrote it"],
  [/^workspace:/, "a workspace: reference (pnpm and yarn workspaces), which npm cannot install"],
  [/^portal:/, "a portal: path (yarn), which npm cannot install"],
  [/^(\/|~\/|[A-Za-z]:[\\/]|\\\\)/, "an absolute path, which exists only on the machine that wrote it"],
  [/^\.{1,2}([\\/]|$)/, "a relative path, which exists only beside the author's copy"],
];

const INSTALLED_FIELDS = ["dependencies", "optionalDependencies", "peerDependencies"] as const;

/** Why `spec` cannot be installed from the registry, or undefined. */
export function localSpecProblem(spec: string): string | undefined {
  return LOCAL_SPECS.find(([pattern]) => pattern.test(spec.trim()))?.[1];
}

/**
 * Dependencies that resolve only on the author's machine: an error in what
 * installers install (dependencies, optional and peer), a warning in
 * devDependencies (only the package's contributors install those).
 */
export function lintDependencySpecs(pkg: PackageJson, add: AddFinding): void {
  const fix = (name: string) =>
    `depend on a published version instead (for example "${name}": "^1.0.0"); to try unreleased packages, publish them to a local registry first (docs/publishing.md)`;
  for (const field of INSTALLED_FIELDS) {
    for (const [name, spec] of Object.entries(pkg[field] ?? {})) {
      const problem = localSpecProblem(spec);
      if (problem)
        add(
          "dependencies",
          "error",
          `${field}["${name}"] is "${spec}": ${problem}, so installing the published package fails`,
          fix(name),
        );
    }
  }
  for (const [name, spec] of Object.entries(pkg.devDependencies ?? {})) {
    const problem = localSpecProblem(spec);
    if (problem)
      add(
        "dependencies",
        "warning",
        `devDependencies["${name}"] is "${spec}": ${problem}; installers are not affected, but a clone of the package does not install`,
        fix(name),
      );
  }
}
