import type { ConfigProblem } from "./config-error.js";

/** A plain YAML mapping. */
export type Mapping = Record<string, unknown>;

/** True for a YAML mapping (not null, not a list). */
export function isMapping(value: unknown): value is Mapping {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reports keys of `section` that are not in `known`, naming the closest known key. */
export function checkKnownKeys(section: Mapping, prefix: string, known: readonly string[], problems: ConfigProblem[]): void {
  for (const name of Object.keys(section)) {
    if (known.includes(name)) continue;
    const near = known.find((k) => k.startsWith(name.slice(0, 4)) || name.startsWith(k.slice(0, 4)));
    problems.push({
      key: `${prefix}.${name}`,
      message: "is not a known key",
      fix: near ? `did you mean ${prefix}.${near}? Known keys: ${known.join(", ")}` : `known keys: ${known.join(", ")}`,
    });
  }
}

/** Reads an integer in [min, max]; returns `fallback` when absent. */
export function readInteger(
  section: Mapping,
  name: string,
  prefix: string,
  range: { min: number; max: number; fallback: number },
  problems: ConfigProblem[],
): number {
  const raw = section[name];
  if (raw === undefined || raw === null) return range.fallback;
  if (typeof raw !== "number" || !Number.isInteger(raw) || raw < range.min || raw > range.max) {
    problems.push({
      key: `${prefix}.${name}`,
      message: `must be a whole number from ${range.min} to ${range.max}, got ${JSON.stringify(raw)}`,
      fix: `write a number such as ${range.fallback} (the default)`,
    });
    return range.fallback;
  }
  return raw;
}

/** Reads a boolean; returns `fallback` when absent. */
export function readBoolean<T extends boolean | undefined>(
  section: Mapping,
  name: string,
  prefix: string,
  fallback: T,
  problems: ConfigProblem[],
): boolean | T {
  const raw = section[name];
  if (raw === undefined || raw === null) return fallback;
  if (typeof raw !== "boolean") {
    problems.push({ key: `${prefix}.${name}`, message: `must be true or false, got ${JSON.stringify(raw)}`, fix: "write true or false without quotes" });
    return fallback;
  }
  return raw;
}

/** Reads a non-empty string; returns `fallback` when absent. */
export function readString<T extends string | undefined>(
  section: Mapping,
  name: string,
  prefix: string,
  fallback: T,
  problems: ConfigProblem[],
): string | T {
  const raw = section[name];
  if (raw === undefined || raw === null) return fallback;
  if (typeof raw !== "string" || raw === "") {
    problems.push({ key: `${prefix}.${name}`, message: `must be a non-empty string, got ${JSON.stringify(raw)}`, fix: "write a text value" });
    return fallback;
  }
  return raw;
}

/** Reads a sub-mapping; reports anything else. Returns {} when absent. */
export function readMapping(section: Mapping, name: string, prefix: string, problems: ConfigProblem[]): Mapping {
  const raw = section[name];
  if (raw === undefined || raw === null) return {};
  if (!isMapping(raw)) {
    problems.push({ key: `${prefix}.${name}`, message: "must be a mapping of keys to values", fix: `write ${name}: followed by indented keys` });
    return {};
  }
  return raw;
}
