import { dropRecord, RANK, withMinimumRank } from "./log-levels.js";
import type { LogFields, Logger, LogLevel } from "./log-types.js";
import { errorFields, safeFields, safeMerge, safeRecord, safeString } from "./safe-json.js";
import { jsonLineForms, maskForms, secretForms } from "./secret-mask.js";
import { writeStderr } from "./stderr-sink.js";

export type { LogFields, Logger, LogLevel } from "./log-types.js";
/** The logger's masking for other texts (a run's output, say), gRPC-free like the logger. */
export { createSecretMask, REDACTED } from "./secret-mask.js";

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** Lowest level written; default `ERRAND_LOG_LEVEL` or `info`. */
  level?: LogLevel;
  /** Fields on every record (the channel name, say). */
  fields?: LogFields;
  /** Where a finished JSON line (with its newline) goes; default standard error. */
  write?: (line: string) => void;
  /**
   * Secret values to mask, known when the logger is made. Any occurrence in a
   * record (see `secretForms`: raw, JSON-escaped, percent-encoded) is
   * replaced by `[redacted]`.
   */
  secrets?: Iterable<string>;
  /**
   * Secret values to mask that become known later (a plugin learns its
   * secrets at Handshake); called for every record written.
   */
  redact?: () => Iterable<string>;
}

/**
 * hclog's own keys. A field by one of these names is written under `_` + its
 * name: a go-plugin host panics on a non-string `@message` or `@timestamp`,
 * and a record's level must be the one it was logged at.
 */
const RESERVED = new Set(["@level", "@message", "@timestamp", "@module"]);
const fieldKey = (key: string) => (RESERVED.has(key) ? `_${key}` : key);

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return errorFields(value);
  if (typeof value === "bigint") return value.toString();
  return value;
}

/** An array of strings (ticket ids, say) without the replacer's call per item; anything else through it. */
function encodeArray(items: unknown[]): string {
  let out = "[";
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item !== "string") return JSON.stringify(items, replacer);
    out += (i === 0 ? "" : ",") + JSON.stringify(item);
  }
  return `${out}]`;
}

/** One field value as JSON, or undefined when JSON.stringify would drop the field. */
function encodeValue(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return `"${value.toString()}"`;
    case "object":
      return Array.isArray(value) ? encodeArray(value) : JSON.stringify(value, replacer);
    default:
      return undefined; // undefined, functions and symbols are left out, as JSON.stringify does
  }
}

/** `fields` with every reserved key renamed (see {@link RESERVED}), in the same order; `fields` itself when none is. */
function renamed(fields: LogFields): LogFields {
  let clash = false;
  for (const key in fields) if (RESERVED.has(key)) clash = true;
  if (!clash) return fields;
  const out: LogFields = {};
  for (const key of Object.keys(fields))
    Object.defineProperty(out, fieldKey(key), {
      value: fields[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

/**
 * Creates a logger that writes one JSON object per line in hclog's JSON
 * format, the format go-plugin hosts parse on a plugin's stderr:
 * `{"@level":"info","@message":"…","@timestamp":"2026-01-02T03:04:05.678000Z",…fields}`,
 * errors as
 * `{name,message,code,hint}`, bigints as strings. `@timestamp` has exactly six
 * fractional digits: go-plugin parses it with the layout
 * `2006-01-02T15:04:05.000000Z07:00` and shows a line it cannot parse
 * verbatim at DEBUG, where operators never see it. Built for hot paths (a line per
 * webhook request): base fields are encoded once, a record is concatenated
 * field by field, the timestamp prefix is reused within a second, and masking
 * is one substring search per secret form.
 *
 * A log call never throws: a value JSON.stringify refuses is written as a
 * marker string (`"[Circular]"` for a reference back to a container,
 * `"[Unserializable: toJSON threw Error: …]"` for a throwing toJSON or
 * getter, `"[Too deep]"` below 100 levels) and the rest of the record as
 * usual. The default sink, stderr, drops lines once stderr is gone (EPIPE
 * after the reading process died) instead of crashing the process; a `write`
 * or `redact` that throws loses that one line.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const envLevel = process.env.ERRAND_LOG_LEVEL;
  const level = options.level ?? (envLevel !== undefined && envLevel in RANK ? (envLevel as LogLevel) : "info");
  const minimum = RANK[level];
  const write = options.write ?? writeStderr;
  const listed = [...(options.secrets ?? [])];
  const forms = jsonLineForms(secretForms(listed));
  const redact = options.redact;
  const keyOf = createKeyEncoder();
  const timeNow = createClock();

  const make = (base: LogFields): Logger => {
    // Encoded at the first record written: a child made per call (a handler's
    // ctx.logger) that logs only below the level costs no encoding.
    let encodedBase: string | undefined;
    const encode = (lvl: LogLevel, message: string, extra: LogFields | undefined): string => {
      const head = `{"@level":"${lvl}","@message":${JSON.stringify(message)},"@timestamp":${timeNow()}`;
      let line = head;
      encodedBase ??= encodeBase(base, keyOf);
      let fields = encodedBase;
      if (extra !== undefined) {
        for (const key in extra) {
          if (!Object.hasOwn(extra, key)) continue;
          if (RESERVED.has(key) || Object.hasOwn(base, key)) {
            // A field overriding another keeps the SDK's spread semantics (and its key order).
            const rest = JSON.stringify(renamed({ ...base, ...extra }), replacer).slice(1, -1);
            line = rest === "" ? head : `${head},${rest}`;
            fields = "";
            break;
          }
          const value = encodeValue(extra[key]);
          if (value !== undefined) fields += keyOf(key) + value;
        }
      }
      return `${line}${fields}}\n`;
    };
    const log = (lvl: LogLevel, message: string, extra?: LogFields) => {
      if (RANK[lvl] < minimum) return;
      // Typed callers always pass a string; plain JavaScript may not.
      const text = typeof message === "string" ? message : safeString(message);
      let line: string;
      try {
        line = encode(lvl, text, extra);
      } catch {
        // A circular value, a throwing toJSON or getter: a log call must never fail its caller.
        const head: Array<[string, string]> = [
          ["@level", `"${lvl}"`],
          ["@message", JSON.stringify(text)],
          ["@timestamp", timeNow()],
        ];
        line = safeRecord(head, base, extra, fieldKey);
      }
      try {
        const all = redact ? jsonLineForms(secretForms([...listed, ...redact()])) : forms;
        write(all.length > 0 ? maskForms(line, all) : line);
      } catch {
        // A failing sink or redact callback loses this line, never the caller's
        // work; without the secrets to mask, dropping it is the safe choice.
      }
    };
    // A level that is off costs a call to an empty function: no formatting, no masking.
    const at = (lvl: LogLevel) => (RANK[lvl] < minimum ? dropRecord : (m: string, f?: LogFields) => log(lvl, m, f));
    return withMinimumRank(
      {
        debug: at("debug"),
        info: at("info"),
        warn: at("warn"),
        error: at("error"),
        child: (more: LogFields) => make(mergeFields(base, more)),
      },
      minimum,
    );
  };
  return make(options.fields ?? {});
}

/** `more` over `base`, as a spread makes it; safeMerge's copy when a getter throws. */
function mergeFields(base: LogFields, more: LogFields): LogFields {
  try {
    return { ...base, ...more };
  } catch {
    return safeMerge(base, more);
  }
}

/** Encodes a field's key as `,"key":`; the encodings of the first 1000 keys are kept. */
function createKeyEncoder(): (key: string) => string {
  const keys = new Map<string, string>();
  return (key) => {
    let encoded = keys.get(key);
    if (encoded === undefined) {
      encoded = `,${JSON.stringify(key)}:`;
      if (keys.size < 1000) keys.set(key, encoded);
    }
    return encoded;
  };
}

/** The time as `"2026-01-02T03:04:05.678000Z"`: the part up to the second is formatted once a second. */
function createClock(): () => string {
  let lastSecond = -1;
  let secondPrefix = "";
  return () => {
    const ms = Date.now();
    const second = Math.floor(ms / 1000);
    if (second !== lastSecond) {
      lastSecond = second;
      secondPrefix = `"${new Date(second * 1000).toISOString().slice(0, 20)}`;
    }
    const frac = ms - second * 1000;
    return `${secondPrefix}${frac < 10 ? "00" : frac < 100 ? "0" : ""}${frac}000Z"`;
  };
}

/** A logger's own fields, encoded once; values JSON refuses become markers. */
function encodeBase(base: LogFields, keyOf: (key: string) => string): string {
  let encoded = "";
  try {
    for (const key of Object.keys(base)) {
      const value = encodeValue(base[key]);
      if (value !== undefined) encoded += keyOf(fieldKey(key)) + value;
    }
  } catch {
    encoded = safeFields(base, (key) => keyOf(fieldKey(key)));
  }
  return encoded;
}

/** A logger that drops everything (for tests and embedding). */
export const silentLogger: Logger = withMinimumRank(
  {
    debug() {},
    info() {},
    warn() {},
    error() {},
    child() {
      return silentLogger;
    },
  },
  Number.POSITIVE_INFINITY,
);
