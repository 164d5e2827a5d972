/** Longest line read as JSON (4 MiB); a longer line is kept as text only, so one runaway line cannot stall the run's reader. */
export const MAX_JSON_LINE_CHARS = 4 * 1024 * 1024;

/** Reads lines of JSON Lines output; counts the lines it refused for their size, so a failure reason can say so. */
export interface JsonLineReader {
  /** The object on `line`, or undefined for text, invalid or truncated JSON, arrays and oversized lines. Never throws. */
  read(line: string): Record<string, unknown> | undefined;
  /** Lines skipped because they were longer than {@link MAX_JSON_LINE_CHARS}. */
  readonly oversized: number;
}

/** A reader for one run's output. */
export function createJsonLineReader(): JsonLineReader {
  let oversized = 0;
  return {
    get oversized() {
      return oversized;
    },
    read(line) {
      if (line.length > MAX_JSON_LINE_CHARS) {
        oversized++;
        return undefined;
      }
      return parseJsonObject(line);
    },
  };
}

/** The JSON object in `text`, or undefined when `text` is not one. Never throws. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The note a failure reason gets when lines were too long to read. */
export function oversizedNote(reader: JsonLineReader): string {
  if (reader.oversized === 0) return "";
  return `; ${reader.oversized} output line(s) longer than ${MAX_JSON_LINE_CHARS / (1024 * 1024)} MiB were not read`;
}
