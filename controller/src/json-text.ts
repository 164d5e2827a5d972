/**
 * The JSON text a value was parsed from, kept beside the value (a WeakMap:
 * it lives as long as the value does). The webhook intake records each
 * event's body here and the store writes that text as the ticket's
 * `rawEvent` instead of serialising the parsed event again: for a 12 KB
 * code host event that `JSON.stringify` was 12 % of the durable intake's
 * CPU (docs/benchmarks.md, "The durable intake").
 */
const texts = new WeakMap<object, string>();

/**
 * Records that `value` is `JSON.parse(text)`. The value must not be changed
 * afterwards (the webhook sources only read the events they parse): the
 * text would then no longer describe it. Returns `value`.
 */
export function rememberJsonText<T extends object>(value: T, text: string): T {
  texts.set(value, text);
  return value;
}

/** The text `value` was parsed from, when {@link rememberJsonText} recorded one. */
export function recordedJsonText(value: object): string | undefined {
  return texts.get(value);
}
