import { asObject, asString } from "../output/json-fields.js";
import { progressText } from "../output/progress-text.js";

/** Input fields that say best what a tool call does, in order of preference. */
const TELLING_FIELDS = ["command", "file_path", "filePath", "path", "pattern", "url", "query", "description"];

/** A short label for a tool call: its name and the most telling input (`Bash: npm test`, `Edit src/a.ts`). */
export function toolLabel(name: string, input: unknown): string {
  const fields = asObject(input);
  for (const field of TELLING_FIELDS) {
    const value = asString(fields[field]);
    const text = value === undefined ? undefined : progressText(value, 200);
    if (text !== undefined) return field === "command" ? `${name}: ${text}` : `${name} ${text}`;
  }
  return name;
}
