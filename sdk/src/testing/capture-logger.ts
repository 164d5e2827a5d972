import { createLogger, type Logger, type LogLevel } from "../logger.js";

/**
 * One record a {@link CapturedLogger} received, parsed back from its JSON
 * line, with hclog's `@timestamp`, `@level` and `@message` read as `time`,
 * `level` and `msg`.
 */
export interface LogRecord {
  time: string;
  level: LogLevel;
  msg: string;
  [field: string]: unknown;
}

/** A logger that keeps what it is given, for assertions. */
export interface CapturedLogger extends Logger {
  /** Records in order, across this logger and all its children. */
  readonly records: LogRecord[];
  /** The JSON lines as the real logger would write them (secrets masked). */
  readonly lines: string[];
  /** Forgets every record. */
  clear(): void;
}

/** Options of {@link captureLogger}. */
export interface CaptureLoggerOptions {
  /** Lowest level kept. Default `debug` (everything). */
  level?: LogLevel;
  /** Secret values masked as `[redacted]`, as the real plugin logger does. */
  secrets?: Iterable<string>;
}

function toRecord(parsed: Record<string, unknown>): LogRecord {
  const { "@timestamp": time, "@level": level, "@message": msg, ...fields } = parsed;
  return { time, level, msg, ...fields } as LogRecord;
}

/**
 * A {@link Logger} that records instead of writing to stderr. It serializes
 * and masks exactly like `createLogger`, so `JSON.stringify(records)` not
 * containing a secret proves the secret never reached a log.
 *
 * @example
 * const logger = captureLogger({ secrets: ["xoxb-secret"] });
 * logger.child({ channel: "chat_a" }).warn("retrying", { attempt: 2 });
 * expect(logger.records[0]).toMatchObject({ level: "warn", msg: "retrying", channel: "chat_a" });
 */
export function captureLogger(options: CaptureLoggerOptions = {}): CapturedLogger {
  const records: LogRecord[] = [];
  const lines: string[] = [];
  const secrets = [...(options.secrets ?? [])];
  const logger = createLogger({
    level: options.level ?? "debug",
    redact: () => secrets,
    write: (line) => {
      lines.push(line);
      records.push(toRecord(JSON.parse(line) as Record<string, unknown>));
    },
  });
  return {
    ...logger,
    records,
    lines,
    clear() {
      records.length = 0;
      lines.length = 0;
    },
  };
}
