/**
 * A compiled dot path: `data.items[0].name` and `data.items.0.name` both
 * become `["data", "items", "0", "name"]`.
 */
export type FieldPath = readonly string[];

/** Splits a dot path (validated at config load) into segments. */
export function compileFieldPath(path: string): FieldPath {
  return path
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .filter((s) => s !== "");
}

/**
 * Follows `path` through objects and arrays. Only own properties are read,
 * so `__proto__` or `constructor` in a path never reach the prototype.
 */
export function readFieldPath(root: unknown, path: FieldPath): unknown {
  let current: unknown = root;
  for (const segment of path) {
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (typeof current === "object" && current !== null && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return current;
}
