import type { StartCallOptions } from "../channel.js";
import { CALL_TARGET_MS } from "../version.js";
import { argumentError, describeValue, isPlainObject, keyPath } from "./argument-error.js";

/**
 * Longest duration accepted, in milliseconds (about 24.8 days): Node's
 * timers fire at once beyond it, and gRPC refuses such deadlines.
 */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/**
 * Checks a caller-supplied duration: a finite number of milliseconds above 0
 * and at most {@link MAX_DURATION_MS}; `undefined` gives `fallback`.
 * Throws InvalidArgumentError naming `name`.
 */
export function checkDuration(value: unknown, name: string, label: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === "number" && value > 0 && value <= MAX_DURATION_MS) return value;
  throw argumentError(
    label,
    name,
    `must be a number of milliseconds above 0 and at most ${MAX_DURATION_MS} (about 24.8 days), got ${describeValue(value)}`,
    `pass a duration such as ${fallback}, or leave ${name.replace(/^options\./, "")} out for the default (${fallback} ms)`,
  );
}

/** Call options after {@link checkCallOptions}: every field set and of the right type. */
export interface CheckedCallOptions {
  signal: AbortSignal | undefined;
  taskRunId: string;
  engine: string;
  timeoutMs: number;
}

function isAbortSignal(value: unknown): value is AbortSignal {
  const signal = value as AbortSignal | null;
  return (
    typeof signal === "object"
    && signal !== null
    && typeof signal.aborted === "boolean"
    && typeof signal.addEventListener === "function"
  );
}

/**
 * Validates the options of a notify call, the same way for in-process and
 * remote channels, so both fail alike: a bad `timeoutMs` (see
 * {@link checkDuration}), a `signal` that is not an AbortSignal, or a
 * `taskRunId` / `engine` that is not a string is an InvalidArgumentError.
 */
export function checkCallOptions(options: StartCallOptions | undefined, label: string): CheckedCallOptions {
  if (options === undefined) return { signal: undefined, taskRunId: "", engine: "", timeoutMs: CALL_TARGET_MS };
  if (typeof options !== "object" || options === null) {
    throw argumentError(
      label,
      "options",
      `must be an object, got ${describeValue(options)}`,
      "pass { timeoutMs, signal, taskRunId } or leave options out",
    );
  }
  const { signal, taskRunId = "", engine = "" } = options;
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw argumentError(
      label,
      "options.signal",
      `must be an AbortSignal, got ${describeValue(signal)}`,
      "pass an AbortController's signal, or leave signal out",
    );
  }
  for (const [name, value] of [
    ["taskRunId", taskRunId],
    ["engine", engine],
  ] as const) {
    if (typeof value !== "string")
      throw argumentError(
        label,
        `options.${name}`,
        `must be a string, got ${describeValue(value)}`,
        `pass ${name} as a string`,
      );
  }
  return {
    signal,
    taskRunId,
    engine,
    timeoutMs: checkDuration(options.timeoutMs, "options.timeoutMs", label, CALL_TARGET_MS),
  };
}

/**
 * Checks that `secrets` is a plain object of string values (the wire's
 * `map<string,string>`); `undefined` is `{}`. The message names the secret
 * but never shows a value.
 */
export function checkSecrets(secrets: unknown, label: string): Record<string, string> {
  if (secrets === undefined) return {};
  if (!isPlainObject(secrets)) {
    throw argumentError(
      label,
      "options.secrets",
      `must be an object of secret name to value, got ${typeName(secrets)}`,
      'pass { "secret-name": "value" }',
    );
  }
  for (const [name, value] of Object.entries(secrets)) {
    if (typeof value !== "string") {
      throw argumentError(
        label,
        `options.secrets${keyPath(name)}`,
        `must be a string, got ${typeName(value)}`,
        "resolve every secret to its string value before passing it",
      );
    }
  }
  return secrets as Record<string, string>;
}

// Secrets are described by type only: a wrongly passed secret must not appear in an error.
function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? describeValue(value) : `a value of type ${typeof value}`;
}
