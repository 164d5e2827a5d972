import { InvalidArgumentError } from "../errors.js";

/**
 * The error every host-side argument check throws: `<label>: <path> <what>`,
 * with a hint, so the message says where the problem is and how to fix it.
 */
export function argumentError(label: string, path: string, what: string, hint: string): InvalidArgumentError {
  return new InvalidArgumentError(`${label}: ${path} ${what}`, { hint });
}

/** A short description of a value for an error message: its type, and a preview when it is short data. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "undefined":
      return "undefined";
    case "string":
      return value.length <= 40 ? `the string ${JSON.stringify(value)}` : `a string of ${value.length} characters`;
    case "number":
    case "boolean":
      return `the ${typeof value} ${String(value)}`;
    case "bigint":
      return `the BigInt ${value}n`;
    case "function":
      return "a function";
    case "symbol":
      return "a symbol";
    default:
      if (Array.isArray(value)) return "an array";
      return `an object (${Object.getPrototypeOf(value)?.constructor?.name ?? "no prototype"})`;
  }
}

/** `.key` for identifiers, `["odd key"]` otherwise, so a path can be pasted back into code. */
export function keyPath(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** True for `{}`-style objects (Object.prototype or no prototype): what JSON and protobuf Struct carry. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
