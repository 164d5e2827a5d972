import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";

// Relative specifiers of static imports, re-exports, side-effect imports, dynamic imports and require().
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g;
const SCANNED = /\.(m|c)?js$/;
const MAX_FILES = 2000;

/** A relative import of a packed file whose target the package would not carry. */
export interface MissingImport {
  /** The packed file that imports it. */
  from: string;
  /** The imported file, relative to the package. */
  missing: string;
}

/**
 * Follows the relative imports of the JavaScript files reachable from
 * `entry`, through files that are packed, and returns the imports whose
 * targets exist here but are not packed: npm always packs a bin and main
 * themselves, even outside "files", so the break shows only in what they import.
 */
export function missingImports(dir: string, entry: string, packed: Set<string>): MissingImport[] {
  const missing: MissingImport[] = [];
  const seen = new Set<string>([entry]);
  const queue = [entry];
  while (queue.length > 0 && seen.size < MAX_FILES) {
    const file = queue.shift()!;
    if (!SCANNED.test(file) || !existsSync(join(dir, file))) continue;
    for (const match of readFileSync(join(dir, file), "utf8").matchAll(SPECIFIER)) {
      const target = posix.normalize(posix.join(posix.dirname(file), match[1]!));
      if (target.startsWith("../") || seen.has(target)) continue;
      seen.add(target);
      if (!packed.has(target)) {
        // A specifier that names nothing here is not a packing problem (a build step or a typo; channel test shows it).
        if (existsSync(join(dir, target))) missing.push({ from: file, missing: target });
      } else {
        queue.push(target);
      }
    }
  }
  return missing;
}

/** The top folder of a package-relative path, for a "files" suggestion. */
export const topFolder = (path: string): string => path.split("/")[0]!;
