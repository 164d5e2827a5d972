import * as z from "zod";
import { configKey } from "../config-key.js";
import { didYouMean } from "../did-you-mean.js";
import { encodeProblems, say } from "../problem-codec.js";

/** The parts of a zod issue our error functions read. */
interface Issue {
  code?: string;
  input?: unknown;
  path?: PropertyKey[] | undefined;
  keys?: string[];
}

/** A value as a message shows it: short, never a whole mapping. */
export function show(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object" && value !== null) return "a mapping";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * An error function: `is required` for a missing key, `is empty` for a key
 * written without a value, else `message(input)` with `fix`.
 */
export function errorFor(message: (input: unknown) => string, fix: string): (iss: Issue) => string {
  return (iss) => {
    if (iss.input === undefined) return say("is required", fix);
    if (iss.input === null) return say("is empty", `${fix}, or remove the key`);
    return say(message(iss.input), fix);
  };
}

/** A whole number in [min, max]; the message names the range and the default. */
export function whole(min: number, max: number, fallback?: number) {
  const fix =
    fallback === undefined
      ? `write a whole number from ${min} to ${max}`
      : `write a number such as ${fallback} (the default)`;
  const error = errorFor((input) => `must be a whole number from ${min} to ${max}, got ${show(input)}`, fix);
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

/** A number above 0 (decimals allowed). */
export function positive(fix: string) {
  const error = errorFor((input) => `must be a number above 0, got ${show(input)}`, fix);
  return z.number({ error }).positive({ error });
}

/** true or false. */
export function flag() {
  return z.boolean({
    error: errorFor((input) => `must be true or false, got ${show(input)}`, "write true or false without quotes"),
  });
}

/** A non-empty string, optionally matching `pattern` (whose `fix` says what fits). */
export function text(options: { pattern?: RegExp; fix?: string } = {}) {
  const fix = options.fix ?? "write a text value";
  const error = errorFor(
    (input) =>
      typeof input === "string" && input !== ""
        ? `${show(input)} is not valid here`
        : `must be a non-empty string, got ${show(input)}`,
    fix,
  );
  const base = z.string({ error }).min(1, { error });
  return options.pattern ? base.regex(options.pattern, { error }) : base;
}

/** A folder or file path; relative paths start at the config file's folder. */
export function filePath(description: string) {
  return text({ fix: "write a folder or file path (relative paths start at the config file's folder)" }).meta({
    description,
  });
}

/** One of `values`. */
export function choice<const T extends readonly [string, ...string[]]>(values: T) {
  const list = `use one of ${values.join(", ")}`;
  return z.enum(values, {
    error: (iss: Issue) => {
      const near = typeof iss.input === "string" ? didYouMean(iss.input, values) : undefined;
      return errorFor(
        (input) => `is ${show(input)}`,
        near === undefined ? list : `did you mean ${near}? Or ${list}`,
      )(iss);
    },
  });
}

/** A list of non-empty strings. */
export function textList(fix = "write a list, e.g. [a, b]") {
  return z.array(text(), { error: errorFor((input) => `must be a list of strings, got ${show(input)}`, fix) });
}

/** Options of {@link section}. */
export interface SectionOptions {
  /** The problem for a key not in the shape; default: `is not a known key` with the nearest known key. */
  unknown?: (name: string, known: readonly string[], prefix: string) => { message: string; fix: string };
  /** Fix shown when the value is not a mapping. */
  fix?: string;
}

/**
 * A mapping with exactly the keys of `shape`. An unknown key is a problem of
 * its own, with the nearest known key when it looks like a typo.
 */
export function section<S extends z.ZodRawShape>(shape: S, options: SectionOptions = {}) {
  const known = Object.keys(shape);
  const unknown = options.unknown ?? unknownKey;
  const notMapping = errorFor(
    () => "must be a mapping of keys to values",
    options.fix ?? "write the key followed by indented keys below it",
  );
  return z.strictObject(shape, {
    error: (iss: Issue) => {
      if (iss.code !== "unrecognized_keys") return notMapping(iss);
      const prefix = configKey(iss.path ?? []);
      return encodeProblems(...(iss.keys ?? []).map((name) => ({ ...unknown(name, known, prefix), under: name })));
    },
  });
}

/** The default problem of an unknown key. */
export function unknownKey(name: string, known: readonly string[], prefix: string): { message: string; fix: string } {
  const near = didYouMean(name, known);
  const dotted = (key: string) => (prefix === "(top level)" ? key : `${prefix}.${key}`);
  const list = `Known keys: ${known.join(", ")}`;
  return {
    message: "is not a known key",
    fix: near === undefined ? list.replace("Known", "known") : `did you mean ${dotted(near)}? ${list}`,
  };
}

/**
 * A section that may be absent or written empty (`store:` with nothing below
 * it); both mean the section with its defaults.
 */
export function withDefaults<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((value) => value ?? (schema.parse({}) as z.output<T>));
}

/** A section that may be absent or written empty; both mean undefined. */
export function optionalSection<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((value) => value ?? undefined);
}

/**
 * The runtime shape of a section: runs only the transform of `schema` on a
 * value its input half already validated (with the rest of the file, so
 * every problem is reported at once).
 */
export function resolved<I extends z.ZodType, O>(
  schema: z.ZodPipe<I, z.ZodTransform<O, z.output<I>>>,
  value: z.output<I>,
): O {
  return schema.out.parse(value);
}
