import { sameLevelAs } from "../log-levels.js";
import type { LogFields, Logger } from "../log-types.js";
import { createMaskingLogger } from "../secret-mask-errors.js";

type Level = "debug" | "info" | "warn" | "error";

let warned = false;

// A host must survive its own logger: a throw here would surface in a
// readline or promise callback, where nothing catches it and Node exits.
function reportOnce(error: unknown) {
  if (warned) return;
  warned = true;
  try {
    process.emitWarning(
      `the logger given to the channel host threw; its records are being dropped: ${error instanceof Error ? error.message : String(error)}`,
      "ErrandLoggerWarning",
    );
  } catch {
    // nothing left to report to
  }
}

function guard(inner: Logger): Logger {
  const call = (level: Level, message: string, fields?: LogFields) => {
    try {
      inner[level](message, fields);
    } catch (error) {
      reportOnce(error);
    }
  };
  return sameLevelAs(
    {
      debug: (message, fields) => call("debug", message, fields),
      info: (message, fields) => call("info", message, fields),
      warn: (message, fields) => call("warn", message, fields),
      error: (message, fields) => call("error", message, fields),
      child: (fields) => {
        try {
          return guard(inner.child(fields));
        } catch (error) {
          reportOnce(error);
          return guard(inner);
        }
      },
    } satisfies Logger,
    inner,
  );
}

/**
 * Wraps a logger for the host side: a throw is swallowed (reported once as a
 * process warning), and with `secrets` every message and field is masked
 * before the logger sees it (see `createMaskingLogger`).
 */
export function guardLogger(inner: Logger, secrets: readonly string[] = []): Logger {
  return guard(createMaskingLogger(inner, secrets));
}
