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
