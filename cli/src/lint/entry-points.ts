import { existsSync } from "node:fs";
import { join, normalize } from "node:path";
import type { PackageJson } from "../conformance/package-json.js";
import type { AddFinding } from "./lint-finding.js";
import { missingImports, topFolder } from "./packed-imports.js";

/** A file the published package promises: a bin, main, or an export target. */
export interface EntryPoint {
  /** How package.json names it: `bin "x"`, `main`, `exports "./y"`. */
  field: string;
  /** The path inside the package, normalized (`dist/bin.js`). */
  path: string;
}

const clean = (path: string) => normalize(path).replace(/^\.\//, "").replace(/\\/g, "/");

function exportTargets(value: unknown, subpath: string, out: EntryPoint[]): void {
  if (typeof value === "string") {
    // Patterns ("./lib/*") name no single file; package.json is always packed.
    if (value.startsWith("./") && !value.includes("*") && clean(value) !== "package.json")
      out.push({ field: `exports "${subpath}"`, path: clean(value) });
  } else if (Array.isArray(value)) {
    for (const item of value) exportTargets(item, subpath, out);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, nested] of Object.entries(value)) exportTargets(nested, key.startsWith(".") ? key : subpath, out);
  }
}

/** Every file the package's bin, main and exports point at. */
export function entryPoints(pkg: PackageJson): EntryPoint[] {
  const out: EntryPoint[] = [];
  if (typeof pkg.bin === "string") out.push({ field: "bin", path: clean(pkg.bin) });
  for (const [name, path] of Object.entries(typeof pkg.bin === "object" ? pkg.bin : {}))
    out.push({ field: `bin "${name}"`, path: clean(path) });
  if (pkg.main) out.push({ field: "main", path: clean(pkg.main) });
  exportTargets(pkg.exports, ".", out);
  return out;
}

const globToRegExp = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*\*\/?/g, "\u0000")
      .replace(/\*/g, "[^/]*")
      .replace(/\?/g, "[^/]")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL marks where a `**` stood; a path never contains one.
      .replace(/\u0000/g, ".*")}$`,
  );

/**
 * Whether the `files` list packs `path`: true or false when the list says so,
 * undefined without a list (npm then packs what ignore files leave, which only
 * `npm pack` itself can tell).
 */
export function filesInclude(files: string[] | undefined, path: string): boolean | undefined {
  if (!files) return undefined;
  const matches = (pattern: string) => {
    const p = clean(pattern).replace(/\/+$/, "");
    const re = globToRegExp(p);
    // A folder in "files" packs everything below it.
    const segments = path.split("/");
    return segments.some((_, i) => re.test(segments.slice(0, i + 1).join("/")));
  };
  if (files.filter((f) => f.startsWith("!")).some((f) => matches(f.slice(1)))) return false;
  return files.filter((f) => !f.startsWith("!")).some(matches);
}

/**
 * Each entry point must exist (the package is built) and be packed with what
 * it imports. A missing file whose folder `files` already lists is a missing
 * build, not a `files` problem, and is reported as such.
 */
export function lintEntryPoints(dir: string, pkg: PackageJson, packed: Set<string> | undefined, add: AddFinding): void {
  const unbuilt: EntryPoint[] = [];
  for (const entry of entryPoints(pkg)) {
    if (!existsSync(join(dir, entry.path))) {
      if (filesInclude(pkg.files, entry.path) === false) {
        add(
          "files",
          "error",
          `${entry.field} points at ${entry.path}, which does not exist and which "files" does not include`,
          `build it ("npm run build") and add its folder to "files" (for example "${topFolder(entry.path)}")`,
        );
      } else {
        unbuilt.push(entry);
      }
    } else if (packed && !packed.has(entry.path)) {
      add(
        "files",
        "error",
        `${entry.field} points at ${entry.path}, which exists but is not in the packed files`,
        `add its folder to "files" (for example "${topFolder(entry.path)}")`,
      );
    } else if (packed) {
      const missing = missingImports(dir, entry.path, packed);
      if (missing.length > 0) {
        const list = missing
          .slice(0, 5)
          .map((m) => `${m.missing} (imported by ${m.from})`)
          .join(", ");
        const folders = [...new Set(missing.map((m) => `"${topFolder(m.missing)}"`))].join(", ");
        add(
          "files",
          "error",
          `${entry.field} points at ${entry.path}, which is packed without what it imports: ${list}${missing.length > 5 ? ", …" : ""}`,
          `add ${folders} to "files"`,
        );
      }
    }
  }
  if (unbuilt.length > 0) {
    const list = unbuilt.map((e) => `${e.field} → ${e.path}`).join(", ");
    add(
      "build",
      "error",
      `the package is not built: ${list} ${unbuilt.length === 1 ? "does" : "do"} not exist`,
      'run "npm run build", then channel lint again (npm publish builds first when a "prepack" script runs the build)',
    );
  }
}
