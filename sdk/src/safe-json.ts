/**
 * The logger's slow path: JSON for values that JSON.stringify refuses
 * (circular structures, a toJSON or getter that throws, nesting too deep for
 * the stack). Only reached after the fast encoder threw, so it may be slow;
 * it must never throw itself. For every value JSON.stringify accepts it
 * gives the same text as JSON.stringify with the logger's replacer, and a
 * record the same keys in the same order as the fast path.
 *
 * Kept rather than safe-stable-stringify (sdk/bench/safe-json.bench.mjs,
 * docs/benchmarks.md): the library writes the same text for a circular record
 * and is faster (56,700 vs 40,300 records/s, median of 7 on the shared 2-core
 * machine), but it throws on a throwing getter or toJSON, exactly the values
 * this path exists for; and it only runs after the fast path failed.
 */

/** Written in place of a value that refers back to one of its containers. */
export const CIRCULAR = "[Circular]";
/** Written in place of a value nested deeper than {@link MAX_DEPTH}. */
export const TOO_DEEP = "[Too deep]";
/** Containers below this depth are written as {@link TOO_DEEP}: the walk is recursive. */
export const MAX_DEPTH = 100;

/** What a thrown value says about itself, without calling anything that could throw again. */
export function describeThrown(error: unknown): string {
  try {
    if (error instanceof Error) return `${error.name}: ${error.message}`;
    return String(error);
  } catch {
    return "an unprintable value";
  }
}

/** A string for a log message that is not one (JS callers), never throwing. */
export function safeString(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    return String(value);
  } catch (error) {
    return `[Unprintable: ${describeThrown(error)}]`;
  }
}

function unserializable(what: string, error: unknown): string {
  return JSON.stringify(`[Unserializable: ${what} threw ${describeThrown(error)}]`);
}

/**
 * `error` as the logger writes errors: `{name, message, code}` (code only
 * when set). Any of the three may be a throwing getter on a hostile object.
 */
export function errorFields(error: Error): Record<string, unknown> {
  const out: Record<string, unknown> = { name: error.name, message: error.message };
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) out.code = code;
  // A ChannelError's hint tells the reader how to fix it: worth its place in a log line.
  const hint = (error as { hint?: unknown }).hint;
  if (typeof hint === "string") out.hint = hint;
  return out;
}

function read(holder: object, key: string): { value: unknown } | { error: unknown } {
  try {
    return { value: (holder as Record<string, unknown>)[key] };
  } catch (error) {
    return { error };
  }
}

/**
 * `value` (found under `key`) as JSON, or undefined where JSON.stringify
 * would leave the property out. `ancestors` holds the containers being
 * written, to tell a cycle from a value that is merely shared.
 */
export function safeJson(value: unknown, key: string, ancestors: object[] = []): string | undefined {
  let current = value;
  if (current !== null && (typeof current === "object" || typeof current === "bigint")) {
    try {
      const toJSON = (current as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === "function") current = (toJSON as (key: string) => unknown).call(current, key);
    } catch (error) {
      return unserializable("toJSON", error);
    }
  }
  if (current instanceof Error) {
    try {
      current = errorFields(current);
    } catch (error) {
      return unserializable("a property of an error", error);
    }
  }
  switch (typeof current) {
    case "string":
      return JSON.stringify(current);
    case "number":
      return Number.isFinite(current) ? String(current) : "null";
    case "boolean":
      return current ? "true" : "false";
    case "bigint":
      return `"${current.toString()}"`;
    case "object":
      break;
    default:
      return undefined;
  }
  if (current === null) return "null";
  if (ancestors.includes(current)) return JSON.stringify(CIRCULAR);
  if (ancestors.length >= MAX_DEPTH) return JSON.stringify(TOO_DEEP);
  if (current instanceof Number || current instanceof String || current instanceof Boolean) {
    return safeJson(current.valueOf(), key, ancestors);
  }
  ancestors.push(current);
  try {
    if (Array.isArray(current)) {
      const items: string[] = [];
      for (let i = 0; i < current.length; i++) {
        const item = read(current, String(i));
        items.push(
          "error" in item
            ? unserializable("an element's getter", item.error)
            : (safeJson(item.value, String(i), ancestors) ?? "null"),
        );
      }
      return `[${items.join(",")}]`;
    }
    let keys: string[];
    try {
      keys = Object.keys(current);
    } catch (error) {
      return unserializable("listing the keys", error);
    }
    const parts: string[] = [];
    for (const name of keys) {
      const property = read(current, name);
      const encoded =
        "error" in property ? unserializable("a getter", property.error) : safeJson(property.value, name, ancestors);
      if (encoded !== undefined) parts.push(`${JSON.stringify(name)}:${encoded}`);
    }
    return `{${parts.join(",")}}`;
  } finally {
    ancestors.pop();
  }
}

/** `fields` encoded one by one on the slow path (keys through `keyName`): a field that cannot be read or encoded becomes a marker string. */
function safeEntries(
  fields: Record<string, unknown> | undefined,
  into: Map<string, string | undefined>,
  keyName: (key: string) => string = (key) => key,
): void {
  if (fields === undefined || fields === null) return;
  let keys: string[];
  try {
    keys = Object.keys(fields);
  } catch (error) {
    into.set("logFields", unserializable("listing the fields", error));
    return;
  }
  for (const key of keys) {
    let value: unknown;
    try {
      value = fields[key];
    } catch (error) {
      into.set(keyName(key), unserializable("a getter", error));
      continue;
    }
    into.set(keyName(key), safeJson(value, key));
  }
}

/** Base fields as the fast path would write them (`,"key":value` each), on the slow path. */
export function safeFields(fields: Record<string, unknown>, keyOf: (key: string) => string): string {
  const entries = new Map<string, string | undefined>();
  safeEntries(fields, entries);
  let out = "";
  for (const [key, value] of entries) if (value !== undefined) out += keyOf(key) + value;
  return out;
}

/**
 * A whole record on the slow path: `head` (keys with their encoded values)
 * first, then the fields with the fast path's spread semantics (a later key
 * keeps its first place), each field's key through `keyName`.
 */
export function safeRecord(
  head: ReadonlyArray<[string, string]>,
  base: Record<string, unknown>,
  extra: Record<string, unknown> | undefined,
  keyName: (key: string) => string,
): string {
  const entries = new Map<string, string | undefined>(head);
  safeEntries(base, entries, keyName);
  safeEntries(extra, entries, keyName);
  const parts: string[] = [];
  for (const [key, value] of entries) if (value !== undefined) parts.push(`${JSON.stringify(key)}:${value}`);
  return `{${parts.join(",")}}\n`;
}

/**
 * `{ ...base, ...more }` where reading a property of `more` may throw: an
 * unreadable value becomes a marker string instead of failing the caller.
 */
export function safeMerge(base: Record<string, unknown>, more: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  let keys: string[];
  try {
    keys = Object.keys(more ?? {});
  } catch {
    return out;
  }
  for (const key of keys) {
    let value: unknown;
    try {
      value = more[key];
    } catch (error) {
      value = `[Unserializable: a getter threw ${describeThrown(error)}]`;
    }
    // defineProperty, as spread does: an own "__proto__" key stays a plain field.
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
