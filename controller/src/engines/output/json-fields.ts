import { isRecord } from "./json-line.js";

/** `value` when it is a string, else undefined. */
export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** `value` when it is a finite number, else undefined. */
export function asNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** `value` when it is a finite number of at least 0, else 0 (token counts). */
export function asCount(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** `value` when it is a JSON object, else an empty one. */
export function asObject(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** `value` when it is an array, else an empty one. */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** `value` when it is a finite number of at least 0 (a cost in USD), else undefined. */
export function asCost(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}
