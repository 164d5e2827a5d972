import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** The fields of package.json this tool reads, each of the type npm expects or absent. */
export interface PackageJson {
  name?: string;
  version?: string;
  bin?: string | Record<string, string>;
  main?: string;
  /** A string, or conditions and subpaths nested down to strings. */
  exports?: string | Record<string, unknown>;
  files?: string[];
  scripts?: Record<string, string>;
  engines?: Record<string, string>;
  keywords?: string[];
  errand?: { channel?: unknown; interfaceVersions?: unknown; template?: unknown };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  /** Fields of the wrong type (left out above), each as "<field> must be …". */
  problems: string[];
}

/** The run cannot start: no package, no bin, ... */
export class TargetError extends Error {
  override readonly name = "TargetError";
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === "string";
const isStringList = (v: unknown) => Array.isArray(v) && v.every(isString);
const isStringMap = (v: unknown) => isObject(v) && Object.values(v).every(isString);

const SHAPES: Record<string, [string, (v: unknown) => boolean]> = {
  name: ["a string", isString],
  version: ["a string", isString],
  bin: ["a string or an object of strings", (v) => isString(v) || isStringMap(v)],
  main: ["a string", isString],
  exports: ["a string or an object", (v) => isString(v) || isObject(v)],
  files: ["a list of strings", isStringList],
  scripts: ["an object of strings", isStringMap],
  engines: ["an object of strings", isStringMap],
  keywords: ["a list of strings", isStringList],
  errand: ["an object", isObject],
  dependencies: ["an object of strings", isStringMap],
  devDependencies: ["an object of strings", isStringMap],
  optionalDependencies: ["an object of strings", isStringMap],
  peerDependencies: ["an object of strings", isStringMap],
};

const kindOf = (v: unknown) =>
  v === null
    ? "null"
    : Array.isArray(v)
      ? "a list"
      : typeof v === "object"
        ? "an object"
        : `the ${typeof v} ${JSON.stringify(v)}`;

/** Keeps the fields of the expected types; a hand-edited package.json may hold anything. */
export function parsePackageJson(raw: unknown, file: string): PackageJson {
  if (!isObject(raw)) throw new TargetError(`${file} must hold a JSON object, not ${kindOf(raw)}`);
  const pkg: PackageJson = { problems: [] };
  for (const [field, [type, ok]] of Object.entries(SHAPES)) {
    const value = raw[field];
    if (value === undefined) continue;
    if (ok(value)) (pkg as unknown as Record<string, unknown>)[field] = value;
    else pkg.problems.push(`"${field}" must be ${type}, not ${kindOf(value)}`);
  }
  return pkg;
}

/**
 * Reads `dir/package.json`. `usage` says what to give instead when there
 * is none, as the calling command accepts it.
 */
export async function readPackageJson(dir: string, usage: string): Promise<PackageJson> {
  if (!existsSync(dir)) throw new TargetError(`${dir} does not exist; ${usage}`);
  if (!statSync(dir).isDirectory()) throw new TargetError(`${dir} is not a directory; ${usage}`);
  const file = join(dir, "package.json");
  if (!existsSync(file)) throw new TargetError(`${dir} has no package.json; ${usage}`);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new TargetError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  return parsePackageJson(raw, file);
}
