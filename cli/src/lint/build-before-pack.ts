import type { PackageJson } from "../conformance/package-json.js";
import type { AddFinding } from "./lint-finding.js";

// The lifecycle scripts npm runs before it packs for `npm publish`.
const BEFORE_PACK = ["prepack", "prepare", "prepublishOnly"] as const;
const BUILDS = /\bbuild\b|\btsc\b/;

/**
 * A package with a build step must build before it is packed: otherwise
 * `npm publish` from a fresh clone or a CI job ships no (or a stale) dist.
 */
export function lintBuildBeforePack(pkg: PackageJson, add: AddFinding): void {
  if (typeof pkg.scripts?.build !== "string") return;
  const lifecycle = BEFORE_PACK.filter((name) => typeof pkg.scripts?.[name] === "string");
  if (lifecycle.some((name) => BUILDS.test(pkg.scripts![name]!))) return;
  const present =
    lifecycle.length === 0
      ? "there is no prepack, prepare or prepublishOnly script"
      : `${lifecycle.map((n) => `"${n}"`).join(" and ")} ${lifecycle.length === 1 ? "does" : "do"} not run it`;
  add(
    "build",
    "error",
    `npm publish would pack without building: the package has a "build" script, but ${present}, so a publish from a fresh clone ships without its built files`,
    lifecycle.includes("prepack")
      ? 'run the build in "prepack" too (for example "npm run build && <what it does now>")'
      : 'add "prepack": "npm run build" to "scripts"',
  );
}
