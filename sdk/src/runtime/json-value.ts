import { argumentError, describeValue, isPlainObject, keyPath } from "./argument-error.js";

/**
 * Deepest nesting of objects and arrays accepted. A Struct costs several
 * protobuf message levels per JSON level and the generated decoder stops at
 * 100, so a config nested much deeper than this would pass the host and fail
 * in the plugin as "Error deserializing request".
 */
export const MAX_JSON_DEPTH = 30;

const PLAIN_DATA_HINT =
  "use only plain objects, arrays, strings, finite numbers, booleans and null (what JSON can carry)";

/**
 * Checks that `value` is a plain object that reaches a plugin exactly as
 * given, through JSON or protobuf Struct: no Date (it would arrive as `{}`),
 * NaN or Infinity (null), BigInt, function, symbol, class instance, circular
 * reference, `undefined` inside an array (null), or nesting deeper than
 * {@link MAX_JSON_DEPTH}. `undefined` object members are allowed: both
 * formats leave them out, as the object had no such key.
 * Throws InvalidArgumentError naming the path of the first bad value.
 */
export function checkJsonObject(value: unknown, path: string, label: string): void {
  if (!isPlainObject(value)) {
    throw argumentError(label, path, `must be a plain object, got ${describeValue(value)}`, PLAIN_DATA_HINT);
  }
  walk(value, path, label, new Set(), 1);
}

function walk(value: unknown, path: string, label: string, parents: Set<object>, depth: number): void {
  const bad = (what: string, hint = PLAIN_DATA_HINT) => argumentError(label, path, what, hint);
  switch (typeof value) {
    case "string":
    case "boolean":
    case "undefined":
      return;
    case "number":
      if (!Number.isFinite(value))
        throw bad(
          `is ${value}, which JSON cannot carry (it would arrive as null)`,
          "use a finite number, null, or a string",
        );
      return;
    case "bigint":
      throw bad(`is ${describeValue(value)}, which JSON cannot carry`, "use a number (exact up to 2^53-1) or a string");
    case "function":
    case "symbol":
      throw bad(`is ${describeValue(value)}, which cannot be sent to a plugin`);
  }
  if (value === null) return;
  const object = value as object;
  if (parents.has(object))
    throw bad(
      "refers back to an object that contains it (a circular structure)",
      "send a tree: copy the shared part instead of referring back to it",
    );
  if (depth > MAX_JSON_DEPTH)
    throw bad(
      `is nested more than ${MAX_JSON_DEPTH} levels deep`,
      "flatten the structure; plugins cannot decode deeper nesting",
    );
  parents.add(object);
  if (Array.isArray(object)) {
    for (let i = 0; i < object.length; i++) {
      const item: unknown = object[i];
      // JSON and Struct turn a hole or undefined in a list into null: refuse rather than change it.
      if (item === undefined)
        throw argumentError(
          label,
          `${path}[${i}]`,
          "is undefined (it would arrive as null)",
          "remove the item or use null",
        );
      walk(item, `${path}[${i}]`, label, parents, depth + 1);
    }
  } else if (isPlainObject(object)) {
    for (const key of Object.keys(object)) walk(object[key], `${path}${keyPath(key)}`, label, parents, depth + 1);
  } else {
    const hint = object instanceof Date ? "send the date as a string, for example date.toISOString()" : PLAIN_DATA_HINT;
    throw bad(`is ${describeValue(object)}, not plain data (it would not arrive unchanged)`, hint);
  }
  parents.delete(object);
}
