import type { LogFields, LogLevel } from "../logger.js";

/** One line of a plugin's stderr, read as a log record. */
export interface PluginLogLine {
  level: LogLevel;
  message: string;
  fields: LogFields;
}

const LEVELS: Readonly<Record<string, LogLevel>> = {
  trace: "debug",
  debug: "debug",
  info: "info",
  warn: "warn",
  error: "error",
};
const PREFIX = /^\[(TRACE|DEBUG|INFO|WARN|ERROR)\]/;

function levelOf(value: unknown): LogLevel | undefined {
  return typeof value === "string" ? LEVELS[value.trim().toLowerCase()] : undefined;
}

/**
 * Reads one stderr line of a plugin the way a go-plugin host does, so a
 * plugin logs the same way to Errand and to any go-plugin host:
 * - hclog JSON (`@level`, `@message`, `@timestamp`, `@module`, other keys as
 *   fields) at its level, `trace` as debug; `@module` becomes the `module`
 *   field, the timestamp is dropped (the host's logger stamps its own);
 * - `{time, level, msg}` JSON, what SDK 0.1.0 plugins write: read the same
 *   way, so plugins built before the switch to hclog keep their levels;
 * - a plain line starting `[ERROR]`, `[WARN]`, … at that level, as go-plugin does;
 * - anything else verbatim at info with `stream: "stderr"` (go-plugin shows
 *   it at debug; Errand keeps it visible, since a plugin's stray output is
 *   usually a crash report).
 */
export function parsePluginLogLine(line: string): PluginLogLine {
  let record: Record<string, unknown> | undefined;
  if (line.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(line);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) record = parsed as Record<string, unknown>;
    } catch {
      // not JSON after all: a plain line
    }
  }
  if (!record) {
    const prefix = PREFIX.exec(line);
    return { level: prefix ? levelOf(prefix[1])! : "info", message: line, fields: { stream: "stderr" } };
  }
  if ("@level" in record || "@message" in record) {
    const { "@level": level, "@message": message, "@timestamp": _time, "@module": module, ...fields } = record;
    if (module !== undefined) fields.module = module;
    return { level: levelOf(level) ?? "info", message: typeof message === "string" ? message : line, fields };
  }
  const { level, msg, time: _time, ...fields } = record;
  return { level: levelOf(level) ?? "info", message: typeof msg === "string" ? msg : line, fields };
}
