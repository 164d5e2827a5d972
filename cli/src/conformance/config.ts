import { readFile } from "node:fs/promises";
import { validateHeaderName, validateHeaderValue } from "node:http";

/** How the sink answers a delivered notification. */
export interface SinkAnswer {
  status: number;
  json: unknown;
  headers?: Record<string, string>;
}

/** A channel's declared rate: at most `perKey` messages per `intervalMs` to one target. */
export interface DeclaredRate {
  perKey: number;
  intervalMs: number;
}

/** The parsed `errand-conformance.json` (see docs/conformance.md). */
export interface ConformanceConfig {
  /** Where it was read from, for messages. */
  source: string;
  config: Record<string, unknown>;
  secrets: Record<string, string>;
  env: Record<string, string>;
  sink: SinkAnswer;
  rate: DeclaredRate | undefined;
  startTimeoutMs: number | undefined;
}

/**
 * The longest start timeout: ten minutes is far beyond any real start, and
 * keeps every timer well below Node's limit of 2^31-1 ms.
 */
export const MAX_START_TIMEOUT_MS = 600_000;

/** The conventional file name in a plugin package's root. */
export const CONFORMANCE_FILE = "errand-conformance.json";

/** The placeholder replaced by the sink's base URL. */
export const SINK_PLACEHOLDER = "{{sink_url}}";

/** Thrown when the config file is missing or malformed; the run cannot start. */
export class ConformanceConfigError extends Error {
  override readonly name = "ConformanceConfigError";
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Reads and validates a conformance config file. */
export async function loadConformanceConfig(file: string): Promise<ConformanceConfig> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new ConformanceConfigError(`cannot read the conformance config ${file}: ${(error as Error).message}`);
  }
  return parseConformanceConfig(raw, file);
}

/** Validates a parsed conformance config; messages name the field to fix. */
export function parseConformanceConfig(raw: unknown, source: string): ConformanceConfig {
  const bad = (what: string) =>
    new ConformanceConfigError(`${source}: ${what} (see docs/conformance.md, "The conformance config")`);
  if (!isObject(raw)) throw bad("the file must hold a JSON object");
  const known = new Set(["$schema", "config", "secrets", "env", "sink", "rate", "startTimeoutMs"]);
  for (const key of Object.keys(raw)) if (!known.has(key)) throw bad(`unknown field "${key}"`);
  const config = raw.config ?? {};
  if (!isObject(config)) throw bad(`"config" must be an object`);
  const stringMap = (name: string): Record<string, string> => {
    const value = raw[name] ?? {};
    if (!isObject(value) || !Object.values(value).every((v) => typeof v === "string")) {
      throw bad(`"${name}" must be an object of string values`);
    }
    return value as Record<string, string>;
  };
  const sinkRaw = raw.sink ?? {};
  if (!isObject(sinkRaw)) throw bad(`"sink" must be an object`);
  const status = sinkRaw.status ?? 200;
  if (!Number.isInteger(status) || (status as number) < 200 || (status as number) > 299) {
    throw bad(`"sink.status" must be a 2xx status code`);
  }
  if (sinkRaw.headers !== undefined) {
    if (!isObject(sinkRaw.headers)) throw bad(`"sink.headers" must be an object of header names to string values`);
    for (const [name, value] of Object.entries(sinkRaw.headers)) {
      const problem = headerProblem(name, value);
      if (problem) throw bad(`"sink.headers" ${JSON.stringify(name)}: ${problem}`);
    }
  }
  let rate: DeclaredRate | undefined;
  if (raw.rate !== undefined) {
    const r = raw.rate;
    if (!isObject(r) || !isPositiveInt(r.perKey) || !isPositiveInt(r.intervalMs)) {
      throw bad(`"rate" must be { "perKey": <positive integer>, "intervalMs": <positive integer> }`);
    }
    rate = { perKey: r.perKey as number, intervalMs: r.intervalMs as number };
  }
  if (
    raw.startTimeoutMs !== undefined
    && !(isPositiveInt(raw.startTimeoutMs) && raw.startTimeoutMs <= MAX_START_TIMEOUT_MS)
  ) {
    throw bad(`"startTimeoutMs" must be a whole number of milliseconds from 1 to ${MAX_START_TIMEOUT_MS}`);
  }
  return {
    source,
    config,
    secrets: stringMap("secrets"),
    env: stringMap("env"),
    sink: {
      status: status as number,
      json: sinkRaw.json ?? { ok: true },
      headers: sinkRaw.headers as Record<string, string> | undefined,
    },
    rate,
    startTimeoutMs: raw.startTimeoutMs as number | undefined,
  };
}

/** Why an HTTP server could not send this header, or undefined. */
function headerProblem(name: string, value: unknown): string | undefined {
  if (typeof value !== "string") return "the value must be a string";
  try {
    validateHeaderName(name);
  } catch {
    return "not a valid HTTP header name (letters, digits and !#$%&'*+-.^_`|~ only)";
  }
  try {
    validateHeaderValue(name, value);
  } catch {
    return "the value holds characters HTTP headers cannot carry (such as a line break)";
  }
  return undefined;
}

function isPositiveInt(v: unknown): v is number {
  return Number.isInteger(v) && (v as number) > 0;
}

/** Replaces the sink placeholder in every string of `value`, deeply. */
export function withSinkUrl<T>(value: T, sinkUrl: string): T {
  if (typeof value === "string") return value.split(SINK_PLACEHOLDER).join(sinkUrl) as T;
  if (Array.isArray(value)) return value.map((v) => withSinkUrl(v, sinkUrl)) as T;
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withSinkUrl(v, sinkUrl)])) as T;
  }
  return value;
}
