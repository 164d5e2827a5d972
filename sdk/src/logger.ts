/** Severity of a log record, lowest first. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** Structured fields attached to a log record. */
export type LogFields = Record<string, unknown>;

/**
 * A structured logger. Plugins log to stderr only: stdout carries the
 * handshake line and nothing else.
 */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every record. */
  child(fields: LogFields): Logger;
}

const levelRank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** Lowest level written; default `ERRAND_LOG_LEVEL` or `info`. */
  level?: LogLevel;
  /** Fields on every record (the channel name, say). */
  fields?: LogFields;
  /** Where a finished JSON line goes; default standard error. */
  write?: (line: string) => void;
  /**
   * Secret values to mask. Any occurrence in a record is replaced by
   * `[redacted]`, so a secret that slips into a message never reaches a log.
   */
  redact?: () => Iterable<string>;
}

function parseLevel(value: string | undefined): LogLevel | undefined {
  return value !== undefined && value in levelRank ? (value as LogLevel) : undefined;
}

function serializeError(error: Error): LogFields {
  const out: LogFields = { name: error.name, message: error.message };
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) out.code = code;
  return out;
}

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return serializeError(value);
  if (typeof value === "bigint") return value.toString();
  return value;
}

/** Masks every secret value found in `text`. */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    // Very short values would mask ordinary words; real secrets are longer.
    if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out;
}

/**
 * Creates a logger that writes one JSON object per line:
 * `{"time":"…","level":"info","msg":"…",…fields}`.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const minimum = levelRank[options.level ?? parseLevel(process.env.ERRAND_LOG_LEVEL) ?? "info"];
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const base = options.fields ?? {};

  const make = (fields: LogFields): Logger => {
    const log = (level: LogLevel, message: string, extra?: LogFields) => {
      if (levelRank[level] < minimum) return;
      const record = { time: new Date().toISOString(), level, msg: message, ...fields, ...extra };
      let line = JSON.stringify(record, replacer);
      // The line is JSON: a secret with quotes or backslashes appears escaped.
      if (options.redact) line = redactSecrets(line, [...options.redact()].flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]));
      write(`${line}\n`);
    };
    return {
      debug: (m, f) => log("debug", m, f),
      info: (m, f) => log("info", m, f),
      warn: (m, f) => log("warn", m, f),
      error: (m, f) => log("error", m, f),
      child: (more) => make({ ...fields, ...more }),
    };
  };
  return make(base);
}

/** A logger that drops everything (for tests and embedding). */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silentLogger;
  },
};
